import Yams

/// A composed YAML node as the JSON value it stands for, for the two places that read YAML into
/// JSON: a manifest's bodies and an OpenAPI spec. They differ in one thing only, what a number JSON
/// cannot write (`.inf`, `.nan`, `1e999`) becomes, so the caller says that.
enum YAMLJSON {
    /// `nonFinite` gets the node and its text: the manifest reports a load error there, a spec keeps
    /// the text as a string (a spec's odd number is the spec's business, not a reason to refuse it).
    static func value(_ node: Node, nonFinite: (Node, String) -> JSONValue) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: return .null
            case Tag.Name.bool.rawValue: return .bool(node.bool ?? false)
            case Tag.Name.int.rawValue, Tag.Name.float.rawValue:
                // Tagged by `YAMLCoreSchema.resolver`, so read by its rules.
                guard let number = YAMLCoreSchema.number(scalar.string), number.isFinite else { return nonFinite(node, scalar.string) }
                return .number(number)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence): return .array(sequence.map { value($0, nonFinite: nonFinite) })
        case .mapping(let mapping):
            var members: [String: JSONValue] = [:]
            // A key written `200` is a YAML integer; both readers mean the string.
            for (key, member) in mapping { members[key.string ?? ""] = value(member, nonFinite: nonFinite) }
            return .object(members)
        case .alias: return .null
        }
    }
}
