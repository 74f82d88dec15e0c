package import Yams

/// A composed YAML node as the JSON value it stands for, for the two places that read YAML into
/// JSON: a manifest's bodies and an OpenAPI spec. They differ in one thing only, what a number JSON
/// cannot write (`.inf`, `.nan`, `1e999`) becomes, so the caller says that.
package enum YAMLJSON {
    /// `nonFinite` gets the node and its text: the manifest reports a load error there, a spec keeps
    /// the text as a string (a spec's odd number is the spec's business, not a reason to refuse it).
    static func value(_ node: Node, nonFinite: (Node, String) -> JSONValue) -> JSONValue {
        var path: [String]?
        var literals: [String: NumberLiteral] = [:]
        return value(node, nonFinite: nonFinite, path: &path, literals: &literals)
    }

    /// As `value`, with the literal of each number past 2^53 (where its Double is not the number
    /// written) by JSON pointer, `""` for the document itself.
    package static func valueKeepingLiterals(_ node: Node, nonFinite: (Node, String) -> JSONValue) -> (value: JSONValue, literals: [String: NumberLiteral]) {
        var path: [String]? = []
        var literals: [String: NumberLiteral] = [:]
        let document = value(node, nonFinite: nonFinite, path: &path, literals: &literals)
        return (document, literals)
    }

    /// `path` is nil when no literal is kept, so a manifest pays nothing for it.
    private static func value(_ node: Node, nonFinite: (Node, String) -> JSONValue, path: inout [String]?,
                              literals: inout [String: NumberLiteral]) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: return .null
            case Tag.Name.bool.rawValue: return .bool(node.bool ?? false)
            case Tag.Name.int.rawValue, Tag.Name.float.rawValue:
                // Tagged by `YAMLCoreSchema.resolver`, so read by its rules.
                guard let number = YAMLCoreSchema.number(scalar.string), number.isFinite else { return nonFinite(node, scalar.string) }
                if let path, number.magnitude >= NumberLiteral.exactLimit, let literal = YAMLCoreSchema.literal(scalar.string) {
                    literals[path.map { "/" + JSONPointer.escape($0) }.joined()] = literal
                }
                return .number(number)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            var items: [JSONValue] = []
            for member in sequence {
                path?.append(String(items.count))
                items.append(value(member, nonFinite: nonFinite, path: &path, literals: &literals))
                path?.removeLast()
            }
            return .array(items)
        case .mapping(let mapping):
            var members: [String: JSONValue] = [:]
            // A key written `200` is a YAML integer; both readers mean the string.
            for (key, member) in mapping {
                path?.append(key.string ?? "")
                members[key.string ?? ""] = value(member, nonFinite: nonFinite, path: &path, literals: &literals)
                path?.removeLast()
            }
            return .object(members)
        case .alias: return .null
        }
    }
}
