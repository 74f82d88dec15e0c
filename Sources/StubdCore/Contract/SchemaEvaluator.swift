// One file though over 400 lines: one walk of an instance through one switch over the keywords.

import Foundation
import StubdEngine

/// Walks one instance through a compiled schema graph, collecting violations up to a limit.
///
/// The instance path is a stack of keys and indexes, turned into a pointer string only when a
/// violation is reported, so a valid instance allocates next to nothing.
struct SchemaEvaluator {
    private enum Step {
        case key(String)
        case index(Int)
    }

    private(set) var violations: [SchemaViolation] = []
    /// Failures seen, including those past `limit` that were not kept.
    private var failures = 0
    private var limit: Int
    private var path: [Step] = []
    /// The `$ref` targets being evaluated, with the instance depth they were entered at: the same target
    /// again at the same depth means a cycle that consumes nothing, which would never end.
    private var activeRefs: [(node: ObjectIdentifier, depth: Int)] = []
    private var depth = 0
    /// The instance's numbers written past 2^53, by instance path (`JSONParser.parseKeepingLiterals`):
    /// compared as written, not as the Double they round to.
    var literals: [String: NumberLiteral] = [:]
    /// When set, each string that keeps to `format: date-time`, at its instance path (`JSONSchema.dateTimes`).
    var dateTimes: [(pointer: String, text: String)]?
    /// Each level is a few frames of recursion: 600 overflowed a 512 KiB Dispatch thread's stack
    /// under ThreadSanitizer (a 255-level document against a recursive schema: 510 levels). 320 levels of
    /// evaluation is more than any API answer nests.
    private static let maxDepth = 320

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    private var isFull: Bool { failures >= limit }

    private var instancePath: String {
        var out = ""
        for step in path {
            switch step {
            case .key(let k): out += "/" + JSONPointer.escape(k)
            case .index(let i): out += "/\(i)"
            }
        }
        return out
    }

    private mutating func report(_ node: SchemaNode, _ keyword: String, _ message: String) {
        report(SchemaViolation(instancePath: instancePath, schemaPath: node.location + "/" + keyword, keyword: keyword, message: message))
    }

    private mutating func report(_ violation: SchemaViolation) {
        failures += 1
        if violations.count < limit { violations.append(violation) }
    }

    /// Patterns that could not be decided within their budget: kept through `probe`, so a `not` or an
    /// `anyOf` that swallowed the outcome cannot turn it into a verdict (see `finish`).
    private(set) var undecidedPatterns: [SchemaViolation] = []

    /// After `evaluate`: every undecided pattern is among the violations, even one a `probe` hid.
    mutating func finish() {
        for violation in undecidedPatterns where !violations.contains(where: {
            $0.instancePath == violation.instancePath && $0.schemaPath == violation.schemaPath && $0.message == violation.message
        }) {
            report(violation)
        }
    }

    /// Whether `value` matches `node`, without keeping any violation: for anyOf, oneOf and not.
    private mutating func probe(_ node: SchemaNode, _ value: JSONValue) -> SchemaViolation? {
        let saved = (violations, failures, limit)
        (violations, failures, limit) = ([], 0, 1)
        evaluate(node, value)
        let first = failures == 0 ? nil : violations.first
        (violations, failures, limit) = saved
        return first
    }

    /// True when `value` matched; violations are appended as found.
    @discardableResult
    mutating func evaluate(_ node: SchemaNode, _ value: JSONValue) -> Bool {
        let before = failures
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth {
            report(node, "$ref", "the schema nests deeper than \(Self.maxDepth) levels at this value")
            return false
        }
        for keyword in node.keywords {
            if isFull { break }
            check(keyword, node, value)
        }
        return failures == before
    }

    private mutating func descend(_ step: Step, _ node: SchemaNode, _ value: JSONValue) {
        path.append(step)
        evaluate(node, value)
        path.removeLast()
    }

    // The keywords that descend into the value (the recursion runs through this function, so its
    // frame is kept small: under AddressSanitizer every local of every case is in it, and a 100-level
    // tree against a recursive schema overflowed a test thread's stack); the rest are asserted by
    // `assertOnValue`, which returns before anything recurses.
    // swiftlint:disable:next cyclomatic_complexity function_body_length
    private mutating func check(_ keyword: SchemaKeyword, _ node: SchemaNode, _ value: JSONValue) {
        switch keyword {
        case .properties(let props):
            guard case .object(let members) = value else { return }
            for (name, schema) in props {
                if isFull { return }
                if let member = members[name] { descend(.key(name), schema, member) }
            }

        case .patternProperties(let patterns):
            guard case .object(let members) = value else { return }
            for key in members.keys.sorted() {
                for (re, schema) in patterns {
                    if isFull { return }
                    guard matches(re, key, node, "patternProperties", at: .key(key), undecided: false) else { continue }
                    descend(.key(key), schema, members[key]!)
                }
            }

        case .additionalProperties(let schema, let declared, let patterns):
            guard case .object(let members) = value else { return }
            // A name no pattern could be decided for is reported by `matches`, not treated as extra.
            let extra = members.keys.sorted().filter { key in
                !declared.contains(key) && !patterns.contains { matches($0, key, node, "additionalProperties", at: .key(key), undecided: true) }
            }
            let forbidden = schema.keywords.count == 1 && { if case .alwaysFalse = schema.keywords[0] { return true } else { return false } }()
            for key in extra {
                if isFull { return }
                if forbidden {
                    path.append(.key(key))
                    var message = "the property '\(key)' is not allowed here"
                    if let near = SchemaMessage.nearest(key, declared.sorted()) {
                        message += "; did you mean '\(near)'?"
                    } else if !declared.isEmpty {
                        message += "; allowed: " + declared.sorted().prefix(20).joined(separator: ", ")
                    }
                    report(node, "additionalProperties", message)
                    path.removeLast()
                } else {
                    descend(.key(key), schema, members[key]!)
                }
            }

        case .prefixItems(let schemas):
            guard case .array(let items) = value else { return }
            for (i, (schema, item)) in zip(schemas, items).enumerated() {
                if isFull { return }
                descend(.index(i), schema, item)
            }

        case .items(let schema, let from):
            guard case .array(let items) = value, items.count > from else { return }
            for i in from..<items.count {
                if isFull { return }
                descend(.index(i), schema, items[i])
            }

        case .contains(let schema, let minimum, let maximum):
            guard case .array(let items) = value else { return }
            var matched = 0
            for item in items where probe(schema, item) == nil { matched += 1 }
            if matched < minimum {
                let wanted = minimum == 1 ? "at least one item" : "at least \(minimum) items"
                report(node, minimum == 1 ? "contains" : "minContains", "expected \(wanted) matching the schema at \(schema.location), got \(matched)")
            } else if let maximum, matched > maximum {
                report(node, "maxContains", "expected at most \(maximum) items matching the schema at \(schema.location), got \(matched)")
            }
        case .allOf(let schemas):
            for schema in schemas {
                if isFull { return }
                evaluate(schema, value)
            }
        case .anyOf(let schemas, let discriminator):
            if let discriminator, case .object = value, !Self.leftToPlainCombination(discriminator, value) {
                choose(discriminator, node, "anyOf", value)
                return
            }
            var reasons: [SchemaViolation] = []
            for schema in schemas {
                guard let reason = probe(schema, value) else { return }
                reasons.append(reason)
            }
            report(node, "anyOf", "matches none of the \(schemas.count) alternatives" + SchemaMessage.explain(reasons))
        case .oneOf(let schemas, let discriminator):
            if let discriminator, case .object = value, !Self.leftToPlainCombination(discriminator, value) {
                if !choose(discriminator, node, "oneOf", value) { return }
            }
            var matched: [Int] = []
            var reasons: [SchemaViolation] = []
            for (i, schema) in schemas.enumerated() {
                if let reason = probe(schema, value) { reasons.append(reason) } else { matched.append(i) }
            }
            if matched.isEmpty {
                report(node, "oneOf", "matches none of the \(schemas.count) alternatives" + SchemaMessage.explain(reasons))
            } else if matched.count > 1 {
                report(node, "oneOf", "matches alternatives \(SchemaMessage.list(matched.map(String.init), "and")) of oneOf; it must match exactly one")
            }
        case .not(let schema):
            if probe(schema, value) == nil {
                report(node, "not", "must not match the schema at \(schema.location)")
            }

        case .ref(let target, let written):
            let id = ObjectIdentifier(target)
            if activeRefs.contains(where: { $0.node == id && $0.depth == path.count }) {
                report(node, "$ref", "the $ref to \(written) leads back to itself without descending into the value "
                       + "(a reference cycle with no properties or items in between); fix the schema")
                return
            }
            activeRefs.append((id, path.count))
            evaluate(target, value)
            activeRefs.removeLast()
        default:
            assertOnValue(keyword, node, value)
        }
    }

    /// The keywords that only look at the value itself (type, bounds, lengths, formats, enum…).
    // swiftlint:disable:next cyclomatic_complexity function_body_length
    @inline(never)
    private mutating func assertOnValue(_ keyword: SchemaKeyword, _ node: SchemaNode, _ value: JSONValue) {
        switch keyword {
        case .alwaysFalse:
            report(node, "false", "no value is allowed here (the schema is false)")

        case .type(let names, let nullable):
            if nullable, value == .null { return }
            if names.contains(where: { Self.matches($0, value) }) {
                // Past 2^53 every Double is whole: the literal says whether an integer was written.
                guard !literals.isEmpty, names.contains(.integer), !names.contains(.number), case .number(let n) = value,
                      let literal = keptLiteral(n), literal.hasFraction else { return }
            }
            let expected = names.map { SchemaMessage.article($0) } + (nullable ? ["null"] : [])
            report(node, "type", "expected \(SchemaMessage.list(expected, "or")), got \(describe(value))")

        case .enumeration(let allowed, let exact):
            if let written = writtenInteger(value) {
                if allowed.indices.contains(where: { i in
                    guard case .number(let y) = allowed[i], let e = exact[i] ?? ExactInteger(y) else { return false }
                    return e == written
                }) { return }
            } else if allowed.contains(where: { Self.equal($0, value) }) { return }
            var message = "expected one of \(SchemaMessage.list(allowed.prefix(12).indices.map { exact[$0]?.description ?? allowed[$0].serialized }, "or"))"
            if allowed.count > 12 { message += " (\(allowed.count) values in all)" }
            message += ", got \(describe(value))"
            if case .string(let s) = value,
               let near = SchemaMessage.nearest(s, allowed.compactMap { v -> String? in if case .string(let a) = v { return a } else { return nil } }) {
                message += "; did you mean \"\(near)\"?"
            }
            report(node, "enum", message)

        case .constant(let expected, let exact):
            let same: Bool
            if let written = writtenInteger(value) {
                if case .number(let y) = expected, let e = exact ?? ExactInteger(y) { same = e == written } else { same = false }
            } else {
                same = Self.equal(expected, value)
            }
            if !same {
                report(node, "const", "expected exactly \(exact?.description ?? SchemaMessage.clip(expected.serialized)), got \(describe(value))")
            }

        case .required(let names):
            guard case .object(let members) = value else { return }
            for name in names where members[name] == nil {
                report(node, "required", "the required property '\(name)' is missing")
            }

        case .minProperties(let n):
            if case .object(let members) = value, members.count < n {
                report(node, "minProperties", "expected at least \(n) properties, got \(members.count)")
            }
        case .maxProperties(let n):
            if case .object(let members) = value, members.count > n {
                report(node, "maxProperties", "expected at most \(n) properties, got \(members.count)")
            }

        case .minItems(let n):
            if case .array(let items) = value, items.count < n {
                report(node, "minItems", "expected at least \(n) items, got \(items.count)")
            }
        case .maxItems(let n):
            if case .array(let items) = value, items.count > n {
                report(node, "maxItems", "expected at most \(n) items, got \(items.count)")
            }
        case .uniqueItems:
            guard case .array(let items) = value, items.count > 1 else { return }
            // Keyed by the canonical serialization's bytes: numbers as numbers (1 == 1.0), `true` is not 1,
            // and strings by code point, as `equal` compares them.
            var seen: [[UInt8]: Int] = [:]
            for (i, item) in items.enumerated() {
                let key = Array(item.serialized.utf8)
                if let first = seen[key] {
                    report(node, "uniqueItems", "items \(first) and \(i) are equal; every item must be unique")
                    return
                }
                seen[key] = i
            }

        case .minLength(let n):
            if case .string(let s) = value, s.unicodeScalars.count < n {
                report(node, "minLength", "expected at least \(n) characters, got \(s.unicodeScalars.count)")
            }
        case .maxLength(let n):
            if case .string(let s) = value, s.unicodeScalars.count > n {
                report(node, "maxLength", "expected at most \(n) characters, got \(s.unicodeScalars.count)")
            }
        case .pattern(let re):
            if case .string(let s) = value, !matches(re, s, node, "pattern", at: nil) {
                report(node, "pattern", "\(SchemaMessage.describe(value)) does not match the pattern \(re.source)")
            }
        case .format(let format):
            if format == .int64, case .number(let n) = value, let literal = keptLiteral(n) {
                if literal.hasFraction || !literal.integerPart.isInt64 {
                    report(node, "format", "expected \(format.expectation), got \(describe(value))")
                }
            } else if !format.accepts(value) {
                report(node, "format", "expected \(format.expectation), got \(describe(value))" + (format.consequence.map { ": " + $0 } ?? ""))
            } else if format == .dateTime, dateTimes != nil, case .string(let text) = value {
                dateTimes!.append((instancePath, text))
            }
        case .formatAnnotation(let format):
            // Every string, RFC 3339 or not: `--swift-compatible` refuses the ones a Swift client cannot decode.
            if format == .dateTime, dateTimes != nil, case .string(let text) = value {
                dateTimes!.append((instancePath, text))
            }

        case .minimum(let bound, let exclusive, let exact):
            guard case .number(let n) = value else { return }
            let side = order(n, bound, exact)
            if exclusive ? side <= 0 : side < 0 {
                report(node, keyword.name, "expected a number \(exclusive ? ">" : ">=") \(exact?.description ?? SchemaMessage.format(bound)), got \(shown(n))")
            }
        case .maximum(let bound, let exclusive, let exact):
            guard case .number(let n) = value else { return }
            let side = order(n, bound, exact)
            if exclusive ? side >= 0 : side > 0 {
                report(node, keyword.name, "expected a number \(exclusive ? "<" : "<=") \(exact?.description ?? SchemaMessage.format(bound)), got \(shown(n))")
            }
        case .multipleOf(let m, let exact):
            guard case .number(let n) = value else { return }
            let multiple: Bool
            if let literal = keptLiteral(n), let divisor = exact ?? ExactInteger(m), !divisor.negative, divisor.digits.count <= 19,
               let d = UInt64(divisor.description), d > 0 {
                multiple = !literal.hasFraction && literal.integerPart.remainder(dividingBy: d) == 0
            } else {
                multiple = Self.isMultiple(n, of: m)
            }
            if !multiple {
                report(node, "multipleOf", "expected a multiple of \(exact?.description ?? SchemaMessage.format(m)), got \(shown(n))")
            }

        default:
            break
        }
    }

    /// Validates an object against the branch its discriminator names; false when that branch failed or
    /// none could be picked (the violations say why).
    @discardableResult
    private mutating func choose(_ discriminator: SchemaKeyword.Discriminator, _ node: SchemaNode, _ keyword: String,
                                 _ value: JSONValue) -> Bool {
        guard case .object(let members) = value else { return true }
        let known = discriminator.branches.keys.sorted()
        guard let tag = members[discriminator.propertyName] else {
            report(node, "discriminator", "the property '\(discriminator.propertyName)' is missing; it selects the schema "
                   + "(one of \(SchemaMessage.list(known.map { "\"\($0)\"" }, "or")))")
            return false
        }
        guard case .string(let name) = tag, let branch = discriminator.branches[name] else {
            path.append(.key(discriminator.propertyName))
            var message = "expected one of \(SchemaMessage.list(known.map { "\"\($0)\"" }, "or")), got \(SchemaMessage.describe(tag))"
            if case .string(let s) = tag, let near = SchemaMessage.nearest(s, known) {
                message += "; did you mean \"\(near)\"?"
            }
            report(node, "discriminator", message)
            path.removeLast()
            return false
        }
        return evaluate(branch, value)
    }

    /// A value whose discriminator names none of the named branches, when some branch is inline
    /// (has no name): it may be that branch's, so plain `oneOf`/`anyOf` decides.
    private static func leftToPlainCombination(_ discriminator: SchemaKeyword.Discriminator, _ value: JSONValue) -> Bool {
        guard !discriminator.namesEveryBranch, case .object(let members) = value else { return false }
        guard case .string(let name)? = members[discriminator.propertyName] else { return true }
        return discriminator.branches[name] == nil
    }

    // MARK: Helpers

    /// The literal of the number at the current instance path, when it was written past 2^53 and kept.
    private func keptLiteral(_ n: Double) -> NumberLiteral? {
        guard !literals.isEmpty, n.magnitude >= NumberLiteral.exactLimit else { return nil }
        return literals[instancePath]
    }

    /// The integer written for `value`, when it is a number kept as written (enum and const compare it exactly).
    private func writtenInteger(_ value: JSONValue) -> ExactInteger? {
        guard case .number(let n) = value, let literal = keptLiteral(n), !literal.hasFraction else { return nil }
        return literal.integerPart
    }

    /// −1, 0 or 1 as `n` lies below, at or above `bound`: exactly when `n` was written past 2^53 and kept
    /// (the bound as written, or as its Double, which below 2^53 is exact), else as Doubles.
    private func order(_ n: Double, _ bound: Double, _ exact: ExactInteger?) -> Int {
        if let literal = keptLiteral(n), let b = exact ?? ExactInteger(bound) { return literal.compare(to: b) }
        return n < bound ? -1 : n > bound ? 1 : 0
    }

    /// A number as a message shows it: as written when kept.
    private func shown(_ n: Double) -> String {
        guard let literal = keptLiteral(n), !literal.hasFraction else { return SchemaMessage.format(n) }
        return literal.integerPart.description
    }

    /// `describe`, with a kept number as written.
    private func describe(_ value: JSONValue) -> String {
        if case .number(let n) = value, keptLiteral(n) != nil { return "the number \(shown(n))" }
        return SchemaMessage.describe(value)
    }

    private static func matches(_ type: SchemaKeyword.TypeName, _ value: JSONValue) -> Bool {
        switch (type, value) {
        case (.null, .null), (.boolean, .bool), (.object, .object), (.array, .array), (.number, .number), (.string, .string):
            return true
        case (.integer, .number(let n)): return n.rounded() == n && n.isFinite
        default: return false
        }
    }

    /// JSON equality: the cases keep `true` and `1` apart, numbers compare as numbers (1 == 1.0), and
    /// strings compare code point by code point (Swift's `==` would call "é" and "e\u{301}" equal).
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in
                // Keys too by code point: look the key up, then confirm it is the same scalars.
                guard let index = y.index(forKey: key), y[index].key.unicodeScalars.elementsEqual(key.unicodeScalars) else { return false }
                return equal(value, y[index].value)
            }
        default: return a == b
        }
    }

    /// Whether `pattern` matches `s`. When the search could not decide within its budget, that is
    /// reported (here, and again at the top if a `not` or `anyOf` swallows it: see `undecided`) and
    /// the answer is `undecided`, so no verdict rests on a guess.
    private mutating func matches(_ pattern: SchemaPattern, _ s: String, _ node: SchemaNode, _ keyword: String,
                                  at step: Step?, undecided: Bool = true) -> Bool {
        switch pattern.search(s) {
        case .match: return true
        case .noMatch: return false
        case .tooCostly:
            if let step { path.append(step) }
            let violation = SchemaViolation(instancePath: instancePath, schemaPath: node.location + "/" + keyword, keyword: keyword,
                                            message: "pattern too costly for this input: \(pattern.costExplanation)")
            report(violation)
            if !undecidedPatterns.contains(where: { $0.instancePath == violation.instancePath && $0.schemaPath == violation.schemaPath }) {
                undecidedPatterns.append(violation)
            }
            if step != nil { path.removeLast() }
            return undecided
        }
    }

    /// Exact for integers; for decimals, the quotient must be within rounding error of a whole number,
    /// so 0.3 is a multiple of 0.1 and 0.0075 of 0.0001, as a person reading the schema means.
    static func isMultiple(_ n: Double, of m: Double) -> Bool {
        if n == 0 { return true }
        if n.rounded() == n, m.rounded() == m, abs(n) < 9e15, abs(m) < 9e15 {
            return n.truncatingRemainder(dividingBy: m) == 0
        }
        let q = n / m
        guard q.isFinite else { return false }
        return abs(q - q.rounded()) <= 4 * q.magnitude.ulp
    }
}
