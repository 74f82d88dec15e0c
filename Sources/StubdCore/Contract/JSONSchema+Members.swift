import StubdEngine

/// What a schema says of an object's members and an array's items, read without an instance: a form
/// body is text until its schema says a field is a number, a list or an object.
extension JSONSchema {
    /// The schemas that apply to member `name` of an object this schema takes, through `$ref`,
    /// `allOf`, `anyOf` and `oneOf` (any branch may be the one that holds): `properties`, else a
    /// matching `patternProperties`, else `additionalProperties`. Empty when nothing is said.
    package func memberSchemas(_ name: String) -> [JSONSchema] { memberSchemas(name, includingAdditional: true) }

    /// Whether `properties` or `patternProperties` name member `name` (`additionalProperties` aside).
    package func names(_ name: String) -> Bool { !memberSchemas(name, includingAdditional: false).isEmpty }

    private func memberSchemas(_ name: String, includingAdditional: Bool) -> [JSONSchema] {
        var out: [JSONSchema] = []
        for node in root.applicable {
            var named: [SchemaNode] = []
            var additional: SchemaNode?
            for keyword in node.keywords {
                switch keyword {
                case .properties(let list): named += list.filter { $0.name == name }.map { $0.schema }
                case .patternProperties(let list): named += list.filter { $0.pattern.search(name) == .match }.map { $0.schema }
                case .additionalProperties(let schema, _, _): additional = schema
                default: break
                }
            }
            if named.isEmpty, includingAdditional, let additional { named = [additional] }
            out += named.map(JSONSchema.init(root:))
        }
        return out
    }

    /// The schemas an array's items are held to (`items`, and `prefixItems` for want of a position).
    package var itemSchemas: [JSONSchema] {
        root.applicable.flatMap { node in
            node.keywords.flatMap { keyword -> [SchemaNode] in
                switch keyword {
                case .items(let schema, _): return [schema]
                case .prefixItems(let list): return list
                default: return []
                }
            }
        }.map(JSONSchema.init(root:))
    }

    /// Whether this schema takes arrays and not strings: a field sent twice, or `a,b` under
    /// `explode: false`, is then a list.
    package var expectsArray: Bool { expects(.array) && !expects(.string) }

    /// Whether this schema takes objects and not strings: `deepObject` or JSON text may then spell one.
    package var expectsObject: Bool { expects(.object) && !expects(.string) }

    /// Whether some `type` the schema reaches names `name`.
    func expects(_ name: SchemaKeyword.TypeName) -> Bool {
        root.applicable.contains { node in
            node.keywords.contains { if case .type(let names, _) = $0 { names.contains(name) } else { false } }
        }
    }
}
