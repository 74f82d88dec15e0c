import Foundation
import StubdEngine

/// A value a schema accepts, for a response the spec gives no example of. Deterministic: the
/// numbers come from a `SeededRandom` seeded by the route, and object members are visited in
/// sorted order, so the same spec gives the same bytes.
///
/// Follows `$ref`s within the document; a schema that refers to itself is unrolled at most twice
/// along one branch and to a bounded depth, after which optional members are left out and arrays
/// are as short as `minItems` allows: a tree gives a few levels, not an endless document.
struct SchemaSampler {
    let document: JSONValue
    let dialect: SchemaDialect
    /// Take a schema's own `example` (3.0) or first `examples` entry (3.1) where it has one.
    var useSchemaExamples = true

    /// Beyond this depth optional members and extra array items are left out.
    static let fullDepth = 4
    /// Beyond this depth nothing more is generated: a required member there means the schema has
    /// no finite instance stubd can find, and the caller says so.
    static let maximumDepth = 24
    /// What one sampled body may grow to (about its JSON size) and take: bounds multiply
    /// (`minItems: 10000` inside `minItems: 10000` is 10^8 items), so each is counted as it is spent.
    static let maximumBytes = 4 << 20
    static let maximumSeconds = 2.0

    /// Where one `sample` stands against the limits; a class so every branch spends from one budget.
    private final class Budget {
        var bytes = 0
        var calls = 0
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(SchemaSampler.maximumSeconds * 1e9)
    }
    private let budget = Budget()

    init(document: JSONValue, dialect: SchemaDialect) {
        self.document = document
        self.dialect = dialect
    }

    /// `pointer` is where `schema` is in the document (`#/paths/...`), for the message when it asks for too much.
    func sample(_ schema: JSONValue, at pointer: String = "#", random: inout SeededRandom) throws(SampleTooLarge) -> JSONValue? {
        try value(schema, &random, refs: [], depth: 0, at: pointer)
    }

    /// Counts `bytes` against the limits, naming the schema at `pointer` (and what it asks for) when one is passed.
    private func spend(_ bytes: Int, at pointer: String, _ asks: @autoclosure () -> String) throws(SampleTooLarge) {
        budget.bytes += bytes
        budget.calls += 1
        if budget.bytes > Self.maximumBytes {
            throw SampleTooLarge(pointer: pointer, asks: asks(), overrun: "grow past \(Self.maximumBytes >> 20) MiB")
        }
        if budget.calls & 1023 == 0, DispatchTime.now().uptimeNanoseconds > budget.deadline {
            throw SampleTooLarge(pointer: pointer, asks: asks(), overrun: "take more than \(Int(Self.maximumSeconds)) s")
        }
    }

    private func value(_ schema: JSONValue, _ random: inout SeededRandom, refs: [String], depth: Int, at pointer: String) throws(SampleTooLarge) -> JSONValue? {
        guard depth <= Self.maximumDepth else { return nil }
        // Counted, not checked: the array or string around a value is what is named when the limit is passed.
        budget.bytes += 1
        switch schema {
        case .bool(true): return .string("value")
        case .object: break
        default: return nil
        }
        guard case .object(var s) = schema else { return nil }
        if case .string(let ref)? = s["$ref"] {
            // A chain of the same reference more than twice on one branch is recursion: stop there.
            guard refs.filter({ $0 == ref }).count < 2, let tokens = JSONPointer.tokens(ofFragment: ref),
                  let target = JSONPointer.resolve(tokens, in: document) else { return nil }
            if dialect == .openAPI30 || s.count == 1 {
                return try value(target, &random, refs: refs + [ref], depth: depth + 1, at: ref)
            }
            // 3.1: siblings of `$ref` apply too; the two are sampled as one allOf.
            s["$ref"] = nil
            return try value(.object(["allOf": .array([target, .object(s)])]), &random, refs: refs + [ref], depth: depth + 1, at: pointer)
        }
        if useSchemaExamples {
            if let example = s["example"] { return example }
            if dialect == .jsonSchema2020, case .array(let examples)? = s["examples"], let first = examples.first { return first }
        }
        if let constant = s["const"] { return constant }
        // The spec's own default before an invented value (`default: 0` came out as 27).
        if useSchemaExamples, let value = s["default"] { return value }
        if case .array(let options)? = s["enum"], !options.isEmpty {
            return options.first { $0 != .null } ?? options[0]
        }
        if case .array(let parts)? = s["allOf"] {
            s["allOf"] = nil
            let merged = merge(parts.map { resolved($0) } + [.object(s)])
            return try value(merged, &random, refs: refs, depth: depth, at: pointer)
        }
        for key in ["oneOf", "anyOf"] {
            if case .array(let options)? = s[key] {
                s[key] = nil
                let discriminator = s.removeValue(forKey: "discriminator")
                for (i, option) in options.enumerated() {
                    let merged = s.isEmpty ? option : merge([resolved(option), .object(s)])
                    guard var v = try value(merged, &random, refs: refs, depth: depth, at: pointer + "/\(key)/\(i)") else { continue }
                    // The discriminating property names the branch (its mapping key, else the schema's
                    // name), whatever example the property gives: CDC's `type: {example: CUSTOM}` under
                    // a branch named Custom drew nothing valid, and the answer was left out.
                    if let (property, name) = Self.discriminating(discriminator, option), case .object(var members) = v {
                        members[property] = .string(name)
                        v = .object(members)
                    }
                    return v
                }
                return nil
            }
        }
        switch typeName(s) {
        case "null": return .null
        case "boolean": return .bool(random.below(2) == 0)
        case "integer": return integer(s, &random)
        case "number": return number(s, &random)
        case "string": return .string(try string(s, &random, at: pointer))
        case "array": return try array(s, &random, refs: refs, depth: depth, at: pointer)
        default: return try object(s, &random, refs: refs, depth: depth, at: pointer)
        }
    }

    /// The discriminator's property and the value that picks `option`: the mapping's key naming its
    /// `$ref` (or the schema's name), else the schema's name; nil for an option that is no `$ref`.
    private static func discriminating(_ discriminator: JSONValue?, _ option: JSONValue) -> (property: String, name: String)? {
        guard case .object(let d)? = discriminator, case .string(let property)? = d["propertyName"],
              case .object(let o) = option, case .string(let ref)? = o["$ref"] else { return nil }
        let name = String(ref.split(separator: "/").last ?? Substring(ref))
        if case .object(let mapping)? = d["mapping"],
           let key = mapping.keys.sorted().first(where: { mapping[$0] == .string(ref) || mapping[$0] == .string(name) }) {
            return (property, key)
        }
        return (property, name)
    }

    /// A `$ref` replaced by its target (one step; the target's own references are followed later).
    private func resolved(_ schema: JSONValue) -> JSONValue {
        guard case .object(let s) = schema, case .string(let ref)? = s["$ref"], let tokens = JSONPointer.tokens(ofFragment: ref),
              let target = JSONPointer.resolve(tokens, in: document) else { return schema }
        return resolved(target)
    }

    /// allOf's parts as one schema: properties and required united, the rest the first one's that says it.
    private func merge(_ parts: [JSONValue]) -> JSONValue {
        var out: [String: JSONValue] = [:]
        var properties: [String: JSONValue] = [:]
        var required: [JSONValue] = []
        for case .object(let part) in parts {
            for (key, v) in part {
                switch key {
                case "properties":
                    if case .object(let ps) = v { for (name, p) in ps { properties[name] = properties[name].map { merge([resolved($0), resolved(p)]) } ?? p } }
                case "required":
                    if case .array(let names) = v { for n in names where !required.contains(n) { required.append(n) } }
                case "allOf":
                    if case .array(let inner) = v, case .object(let m) = merge(inner.map { resolved($0) }) {
                        if case .object(let ps)? = m["properties"] { for (name, p) in ps where properties[name] == nil { properties[name] = p } }
                        if case .array(let names)? = m["required"] { for n in names where !required.contains(n) { required.append(n) } }
                        for (k, x) in m where k != "properties" && k != "required" && out[k] == nil { out[k] = x }
                    }
                default:
                    if out[key] == nil { out[key] = v }
                }
            }
        }
        if !properties.isEmpty { out["properties"] = .object(properties) }
        if !required.isEmpty { out["required"] = .array(required) }
        return .object(out)
    }

    private func typeName(_ s: [String: JSONValue]) -> String {
        switch s["type"] {
        case .string(let t)?: return t
        case .array(let ts)?:
            let names = ts.compactMap { if case .string(let t) = $0 { t } else { nil } }
            return names.first { $0 != "null" } ?? names.first ?? "object"
        default:
            if s["properties"] != nil || s["required"] != nil || s["additionalProperties"] != nil { return "object" }
            if s["items"] != nil || s["prefixItems"] != nil { return "array" }
            if s["minimum"] != nil || s["maximum"] != nil || s["multipleOf"] != nil { return "number" }
            if s["pattern"] != nil || s["format"] != nil || s["minLength"] != nil || s["maxLength"] != nil { return "string" }
            return "object"
        }
    }

    private func object(_ s: [String: JSONValue], _ random: inout SeededRandom, refs: [String], depth: Int, at pointer: String) throws(SampleTooLarge) -> JSONValue? {
        let properties: [String: JSONValue]
        if case .object(let ps)? = s["properties"] { properties = ps } else { properties = [:] }
        var required: Set<String> = []
        if case .array(let names)? = s["required"] { for case .string(let n) in names { required.insert(n) } }
        var out: [String: JSONValue] = [:]
        for name in Set(properties.keys).union(required).sorted() {
            let isRequired = required.contains(name)
            // Past the full depth only what must be there is written, so recursion ends.
            if !isRequired && depth >= Self.fullDepth { continue }
            let schema = properties[name] ?? additional(s) ?? .bool(true)
            let at = pointer + (properties[name] != nil ? "/properties/" + JSONPointer.escape(name) : "/additionalProperties")
            try spend(name.utf8.count + 4, at: pointer, "member \(name)")
            if let v = try value(schema, &random, refs: refs, depth: depth + 1, at: at) {
                out[name] = v
            } else if isRequired {
                return nil
            }
        }
        return .object(out)
    }

    /// The schema of members not named in `properties`, when the object allows them.
    private func additional(_ s: [String: JSONValue]) -> JSONValue? {
        switch s["additionalProperties"] {
        case .bool(false)?: return nil
        case .object(let a)?: return .object(a)
        default: return .bool(true)
        }
    }

    private func array(_ s: [String: JSONValue], _ random: inout SeededRandom, refs: [String], depth: Int, at pointer: String) throws(SampleTooLarge) -> JSONValue? {
        let minimum = s["minItems"].flatMap(Self.int) ?? 0
        let maximum = s["maxItems"].flatMap(Self.int) ?? Int.max
        var out: [JSONValue] = []
        var prefix: [JSONValue] = []
        if case .array(let p)? = s["prefixItems"] { prefix = p }
        if case .array(let p)? = s["items"] { prefix = p }   // the older tuple form of items
        let items: JSONValue? = { if case .object? = s["items"] { return s["items"] } else if s["items"] == .bool(true) { return .bool(true) }; return nil }()
        let wanted = depth >= Self.fullDepth ? minimum : min(max(minimum, 1), maximum)
        // `contains`: minContains items (1 unless said) drawn from it, within `items`, after the others.
        let containing = s["contains"] == nil ? 0 : min(s["minContains"].flatMap(Self.int) ?? 1, maximum)
        // With `maxContains`, the other items may match `contains` too (an enum's first value, any
        // integer): only so many may, the rest are drawn to miss it.
        var spare = Int.max
        var contained: JSONSchema?
        if let contains = s["contains"], let most = s["maxContains"].flatMap(Self.int) {
            spare = max(most - containing, 0)
            contained = try? SchemaCompiler(document: document, dialect: dialect, formats: .annotate).schema(of: contains, at: pointer + "/contains")
        }
        let fillers = max(wanted - containing, min(prefix.count, maximum - containing), 0)
        for i in 0..<fillers {
            let schema = i < prefix.count ? prefix[i] : (items ?? .bool(true))
            let at = pointer + (i < prefix.count ? (s["prefixItems"] != nil ? "/prefixItems/\(i)" : "/items/\(i)") : "/items")
            // Named by the array that asks for so many: the bound the user would lower.
            try spend(1, at: pointer, "minItems \(minimum)")
            var drawn = try value(schema, &random, refs: refs, depth: depth + 1, at: at)
            if let contained, let v = drawn, contained.isValid(v) {
                if spare > 0 {
                    spare -= 1
                } else {
                    drawn = try missing(contained, schema, &random, refs: refs, depth: depth + 1, at: at)
                }
            }
            guard let v = drawn else {
                if out.count + containing >= minimum { break }
                return nil
            }
            out.append(v)
        }
        if let contains = s["contains"] {
            let schema = items.map { merge([resolved($0), resolved(contains)]) } ?? contains
            for _ in 0..<containing {
                try spend(1, at: pointer, "minContains \(containing)")
                guard let v = try value(schema, &random, refs: refs, depth: depth + 1, at: pointer + "/contains") else { return nil }
                out.append(v)
            }
        }
        // uniqueItems with a small enum can repeat a value: keep the distinct ones if that still meets minItems.
        if s["uniqueItems"] == .bool(true) {
            var seen = Set<JSONValue>()
            let distinct = out.filter { seen.insert($0).inserted }
            if distinct.count >= minimum { out = distinct }
        }
        return .array(out)
    }

    /// An item of `schema` that does not match `contained` (an array's `contains` past `maxContains`):
    /// the enum's other values, then fresh draws without the schema's own examples; nil when none misses.
    private func missing(_ contained: JSONSchema, _ schema: JSONValue, _ random: inout SeededRandom, refs: [String], depth: Int,
                         at pointer: String) throws(SampleTooLarge) -> JSONValue? {
        if case .object(let s) = resolved(schema), case .array(let options)? = s["enum"],
           let other = options.first(where: { !contained.isValid($0) }) {
            return other
        }
        var fresh = self
        fresh.useSchemaExamples = false
        for _ in 0..<8 {
            if let v = try fresh.value(schema, &random, refs: refs, depth: depth, at: pointer), !contained.isValid(v) { return v }
        }
        return nil
    }

    private static func int(_ v: JSONValue) -> Int? {
        if case .number(let n) = v, n.isFinite, n >= 0, n < 1e6 { return Int(n) }
        return nil
    }

    private static func number(_ v: JSONValue?) -> Double? {
        if case .number(let n)? = v, n.isFinite { return n }
        return nil
    }

    /// The bounds as given, each with whether it is exclusive (3.0's boolean form or 3.1's number form).
    private func bounds(_ s: [String: JSONValue]) -> (low: Double?, lowOpen: Bool, high: Double?, highOpen: Bool) {
        var low = Self.number(s["minimum"]), high = Self.number(s["maximum"])
        var lowOpen = false, highOpen = false
        switch s["exclusiveMinimum"] {
        case .bool(true)?: lowOpen = low != nil
        case .number(let n)?: if low == nil || n >= low! { low = n; lowOpen = true }
        default: break
        }
        switch s["exclusiveMaximum"] {
        case .bool(true)?: highOpen = high != nil
        case .number(let n)?: if high == nil || n <= high! { high = n; highOpen = true }
        default: break
        }
        return (low, lowOpen, high, highOpen)
    }

    private func integer(_ s: [String: JSONValue], _ random: inout SeededRandom) -> JSONValue {
        let b = bounds(s)
        var low = b.low.map { b.lowOpen ? ($0 + 1).rounded(.down) : $0.rounded(.up) }
        var high = b.high.map { b.highOpen ? ($0 - 1).rounded(.up) : $0.rounded(.down) }
        if low == nil && high == nil { low = 1; high = 100 }
        if low == nil { low = high! - 99 }
        if high == nil { high = low! + 99 }
        let span = max(0, min(high! - low!, 1_000_000))
        var v = low! + Double(random.below(Int(span) + 1))
        if let m = Self.number(s["multipleOf"]), m > 0 {
            v = (v / m).rounded(.down) * m
            if v < low! { v += m }
        }
        return .number(v)
    }

    private func number(_ s: [String: JSONValue], _ random: inout SeededRandom) -> JSONValue {
        let b = bounds(s)
        if let m = Self.number(s["multipleOf"]), m > 0 {
            // A multiple of m inside the bounds: the first one above the lower bound.
            let low = b.low ?? 1
            var k = (low / m).rounded(.up)
            if b.lowOpen && k * m <= low { k += 1 }
            return .number(k * m)
        }
        var low = b.low, high = b.high
        if low == nil && high == nil { low = 1; high = 100 }
        if low == nil { low = high! - 99 }
        if high == nil { high = low! + 99 }
        // Whole numbers where the range allows, halves where it is narrow, the midpoint otherwise.
        let lo = low!, hi = high!
        var candidates: [Double] = []
        var whole = b.lowOpen ? (lo + 1).rounded(.down) : lo.rounded(.up)
        while whole <= hi && candidates.count < 100 {
            if !(b.highOpen && whole >= hi) { candidates.append(whole) }
            whole += 1
        }
        if candidates.isEmpty { return .number((lo + hi) / 2) }
        return .number(candidates[random.below(candidates.count)])
    }

    private static let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]

    private func string(_ s: [String: JSONValue], _ random: inout SeededRandom, at pointer: String) throws(SampleTooLarge) -> String {
        let n = random.below(28) + 1
        if case .string(let format)? = s["format"] {
            let day = String(format: "%02d", n)
            switch format {
            case "date-time": return "2026-01-\(day)T\(String(format: "%02d", random.below(24))):00:00Z"
            case "date": return "2026-01-\(day)"
            case "time": return "\(String(format: "%02d", random.below(24))):30:00Z"
            case "uuid":
                var hex = ""
                for _ in 0..<32 { hex.append(Array("0123456789abcdef")[random.below(16)]) }
                let c = Array(hex)
                return String(c[0..<8]) + "-" + String(c[8..<12]) + "-4" + String(c[13..<16]) + "-a" + String(c[17..<20]) + "-" + String(c[20..<32])
            case "email": return "user\(n)@example.com"
            case "uri", "url", "uri-reference", "iri", "iri-reference": return "https://example.com/\(Self.words[random.below(Self.words.count)])"
            case "hostname", "idn-hostname": return "host\(n).example.com"
            case "ipv4": return "192.0.2.\(n)"
            case "ipv6": return "2001:db8::\(n)"
            case "byte": return Data(Self.words[random.below(Self.words.count)].utf8).base64EncodedString()
            default: break
            }
        }
        if case .string(let pattern)? = s["pattern"], let sampled = PatternSampler.sample(pattern, random: &random) {
            return sampled
        }
        var text = Self.words[random.below(Self.words.count)]
        let minLength = s["minLength"].flatMap(Self.int) ?? 0
        let maxLength = s["maxLength"].flatMap(Self.int) ?? Int.max
        // Padded in one step: `count` walks the whole string, so a loop of `+= "x"` was quadratic.
        if text.count < minLength {
            try spend(minLength, at: pointer, "minLength \(minLength)")
            text += String(repeating: "x", count: minLength - text.count)
        }
        if text.count > maxLength { text = String(text.prefix(maxLength)) }
        try spend(text.utf8.count + 2, at: pointer, "a string")
        return text
    }
}
