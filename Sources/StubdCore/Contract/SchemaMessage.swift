import StubdEngine

/// How a schema violation's message words what it saw and wanted: `the string "12"`, `an integer`,
/// `"a", "b", or "c"`, a did-you-mean within two edits. Kept apart from `SchemaEvaluator`, which
/// decides; this only says.
enum SchemaMessage {
    /// The candidate within two edits of `s` (case-insensitively, as manifest hints count), ties going
    /// to the one whose letters agree in case, so "dgo" suggests "dog" over "Dog".
    static func nearest(_ s: String, _ candidates: [String]) -> String? {
        func caseMisses(_ c: String) -> Int {
            zip(s, c).filter { $0 != $1 }.count + abs(s.count - c.count)
        }
        let scored = candidates.map { (candidate: $0, distance: editDistance(s, $0), misses: caseMisses($0)) }
            .filter { $0.distance <= 2 && $0.candidate != s }
        return scored.min { ($0.distance, $0.misses) < ($1.distance, $1.misses) }?.candidate
    }

    static func article(_ type: SchemaKeyword.TypeName) -> String {
        switch type {
        case .null: return "null"
        case .boolean: return "a boolean"
        case .object: return "an object"
        case .array: return "an array"
        case .number: return "a number"
        case .integer: return "an integer"
        case .string: return "a string"
        }
    }

    static func list(_ items: [String], _ conjunction: String) -> String {
        switch items.count {
        case 0: return "nothing"
        case 1: return items[0]
        case 2: return "\(items[0]) \(conjunction) \(items[1])"
        default: return items.dropLast().joined(separator: ", ") + ", \(conjunction) " + items.last!
        }
    }

    static func explain(_ reasons: [SchemaViolation]) -> String {
        let shown = reasons.prefix(3).enumerated().map { i, r in
            "alternative \(i + 1): \(r.instancePath.isEmpty ? "" : r.instancePath + " ")\(r.message)"
        }
        return shown.isEmpty ? "" : " (" + shown.joined(separator: "; ") + (reasons.count > 3 ? "; ..." : "") + ")"
    }

    static func format(_ n: Double) -> String { JSONValue.number(n).serialized }

    static func clip(_ s: String) -> String { s.count > 60 ? s.prefix(57) + "..." : s }

    /// A value as a message names it: `the string "12"`, `the number 12`, `an object`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return "the boolean \(b)"
        case .number(let n): return "the number \(format(n))"
        case .string(let s): return "the string \(clip(JSONValue.string(s).serialized))"
        case .array(let items): return items.isEmpty ? "an empty array" : "an array of \(items.count) items"
        case .object(let members): return members.isEmpty ? "an empty object" : "an object"
        }
    }
}
