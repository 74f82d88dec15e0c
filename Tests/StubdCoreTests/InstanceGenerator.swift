import Foundation
@testable import StubdCore
@testable import StubdEngine

/// Makes JSON instances that mostly follow a schema and sometimes break it in the ways real answers do:
/// a wrong type, a missing or misspelt property, an enum value the API does not send, a bad date,
/// a number past its bound, a duplicate. Seeded, so a failure reproduces.
struct InstanceGenerator {
    private var state: UInt64
    /// Half the instances are made with no flaw on purpose, so both verdicts are well represented.
    private var careful = false
    /// The rest get one or two flaws at most, so a single wrong verdict is not hidden behind another flaw.
    private var flawsLeft = 0

    init(seed: UInt64) {
        state = seed
    }

    /// SplitMix64: small, and the same on every platform.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < p }
    private mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    private mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
    private mutating func flaw(_ p: Double) -> Bool {
        guard !careful, flawsLeft > 0, chance(p * 1.5) else { return false }
        flawsLeft -= 1
        return true
    }

    mutating func instance(of schema: JSONValue, root: JSONValue) -> JSONValue {
        careful = chance(0.4)
        flawsLeft = int(1...2)
        return instance(of: schema, root: root, depth: 0)
    }

    static let formats: [String: (valid: [String], invalid: [String])] = [
        "date-time": (["2024-05-01T12:00:00Z", "2024-02-29T23:59:59.123+05:30", "1999-12-31T00:00:00-08:00"],
                      ["2024-05-01 12:00:00", "2024-13-01T00:00:00Z", "2023-02-29T10:00:00Z", "yesterday", "2024-05-01T25:00:00Z"]),
        "date": (["2024-05-01", "2024-02-29"], ["2023-02-29", "2024-5-1", "01/05/2024"]),
        "uuid": (["123e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000"],
                 ["123e4567e89b12d3a456426614174000", "not-a-uuid", "123e4567-e89b-12d3-a456-42661417400g"]),
        "email": (["ana@example.com", "x.y+z@mail.example.org"], ["ana.example.com", "plain"]),
    ]

    static let strings = ["Paris", "", "é", "e\u{301}", "😀😀", "admin", "root", "x", "Lyon", "Zürich", "ab", "abc", "abcd"]

    private mutating func instance(of schema: JSONValue, root: JSONValue, depth: Int) -> JSONValue {
        guard case .object(let s) = schema else { return wild() }
        if flaw(0.025) { return wild() }
        if case .string(let ref)? = s["$ref"], let tokens = JSONPointer.tokens(ofFragment: ref),
           let target = JSONPointer.resolve(tokens, in: root) {
            return instance(of: target, root: root, depth: depth + 1)
        }
        if case .array(let branches)? = s["oneOf"] ?? s["anyOf"] { return instance(of: pick(branches), root: root, depth: depth + 1) }
        if let constant = s["const"] { return flaw(0.05) ? wild() : constant }
        if case .array(let options)? = s["enum"] { return flaw(0.08) ? .string(pick(["kelvin", "Metric", "Rainy"])) : pick(options) }
        if case .array(var examples)? = s["examples"] {
            if careful, case .string(let source)? = s["pattern"], let re = try? NSRegularExpression(pattern: source) {
                examples = examples.filter { value in
                    guard case .string(let text) = value else { return false }
                    return re.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                }
            }
            return pick(examples)
        }

        var types: [String] = []
        switch s["type"] {
        case .string(let t)?: types = [t]
        case .array(let list)?: types = list.compactMap { if case .string(let t) = $0 { return t } else { return nil } }
        default: types = [s["properties"] != nil ? "object" : "string"]
        }
        switch pick(types) {
        case "object": return object(s, root: root, depth: depth)
        case "array": return array(s, root: root, depth: depth)
        case "string":
            if case .string(let format)? = s["format"], let pool = Self.formats[format] {
                return .string(flaw(0.3) ? pick(pool.invalid) : pick(pool.valid))
            }
            var pool = Self.strings
            if careful {
                var minLength = 0, maxLength = Int.max
                if case .number(let n)? = s["minLength"] { minLength = Int(n) }
                if case .number(let n)? = s["maxLength"] { maxLength = Int(n) }
                var forbidden: [JSONValue] = []
                if case .object(let not)? = s["not"], case .array(let values)? = not["enum"] { forbidden = values }
                pool = pool.filter { (minLength...maxLength).contains($0.unicodeScalars.count) && !forbidden.contains(.string($0)) }
                if pool.isEmpty { pool = [String(repeating: "a", count: max(minLength, 1))] }
            }
            return .string(pick(pool))
        case "integer", "number":
            return number(s, integer: types.contains("integer"))
        case "boolean": return .bool(chance(0.5))
        default: return .null
        }
    }

    private mutating func wild() -> JSONValue {
        pick([.null, .bool(true), .number(12), .number(-0.5), .string("12"), .array([]), .object([:])])
    }

    private mutating func object(_ s: [String: JSONValue], root: JSONValue, depth: Int) -> JSONValue {
        guard case .object(let properties)? = s["properties"] else { return .object([:]) }
        var required: Set<String> = []
        if case .array(let names)? = s["required"] {
            for case .string(let name) in names { required.insert(name) }
        }
        var members: [String: JSONValue] = [:]
        for name in properties.keys.sorted() {
            let include = required.contains(name) ? !flaw(0.03) : chance(depth > 3 ? 0.2 : 0.5)
            if include { members[name] = instance(of: properties[name]!, root: root, depth: depth + 1) }
        }
        if flaw(0.08) {
            // A misspelt declared name, or one the schema has never heard of.
            let near = String(pick(properties.keys.sorted()).reversed())
            members[chance(0.5) ? near : "extra"] = .number(1)
        }
        return .object(members)
    }

    private mutating func array(_ s: [String: JSONValue], root: JSONValue, depth: Int) -> JSONValue {
        var minItems = 0, maxItems = 3
        if case .number(let n)? = s["minItems"] { minItems = Int(n) }
        if case .number(let n)? = s["maxItems"] { maxItems = Int(n) }
        if depth > 4 { maxItems = min(maxItems, 1) }
        let count = careful ? int(minItems...max(minItems, maxItems))
            : int(max(0, minItems - 1)...max(minItems, maxItems + (chance(0.1) ? 1 : 0)))
        var items: [JSONValue] = []
        var prefix: [JSONValue] = []
        if case .array(let p)? = s["prefixItems"] { prefix = p }
        for i in 0..<count {
            if i < prefix.count {
                items.append(instance(of: prefix[i], root: root, depth: depth + 1))
            } else if let item = s["items"], item != .bool(false) {
                items.append(instance(of: item, root: root, depth: depth + 1))
            } else {
                items.append(wild())
            }
        }
        if s["uniqueItems"] == .bool(true), let first = items.first, flaw(0.2) { items.append(first) }
        return .array(items)
    }

    private mutating func number(_ s: [String: JSONValue], integer: Bool) -> JSONValue {
        func bound(_ keys: [String]) -> Double? {
            for key in keys { if case .number(let n)? = s[key] { return n } }
            return nil
        }
        let low = bound(["minimum", "exclusiveMinimum"]) ?? -1000
        let high = bound(["maximum", "exclusiveMaximum"]) ?? 1000
        if case .number(let m)? = s["multipleOf"], chance(0.7) {
            let span = Int(((high - low) / m).rounded(.down))
            return .number(((low / m).rounded(.up) + Double(int(0...max(0, span)))) * m)
        }
        if case .number(let m)? = s["multipleOf"], careful {
            return .number(((low / m).rounded(.up) + 1) * m)
        }
        if flaw(0.15) { return .number(pick([low, high])) }
        let whole = careful ? Double(int(Int(low) + 1...max(Int(low) + 1, Int(high) - 1))) : Double(int(Int(low) - 2...Int(high) + 2))
        if integer && !flaw(0.05) { return .number(whole) }
        if careful { return .number(whole + (whole < high - 1 ? Double(int(0...99)) / 100 : 0)) }
        return .number(whole + Double(int(0...99)) / 100)
    }
}
