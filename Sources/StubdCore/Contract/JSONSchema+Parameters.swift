package import StubdEngine

/// What a parameter's schema says of the text a request sends: its shape (how the text is split) and,
/// for each item and member, the type its text is read as (`100` is the number 100 where `R` is an
/// integer, the string "100" where it is a string).
extension JSONSchema {
    /// Array, object or anything else, through `$ref`, `allOf`, `anyOf` and `oneOf`.
    package var parameterShape: ContractParameter.Shape {
        let nodes = root.applicable
        var types: Set<SchemaKeyword.TypeName> = []
        var typed = false
        var properties: [String] = []
        var hasItems = false
        var hasProperties = false
        var closed = false
        var extraAllowed = false
        for node in nodes {
            for keyword in node.keywords {
                switch keyword {
                case .type(let names, _): types.formUnion(names); typed = true
                case .items, .prefixItems: hasItems = true
                case .properties(let props):
                    hasProperties = true
                    let known = properties
                    properties += props.map(\.name).filter { !known.contains($0) }
                case .additionalProperties(let schema, _, _):
                    if schema.keywords.count == 1, case .alwaysFalse = schema.keywords[0] { closed = true } else { extraAllowed = true }
                default: break
                }
            }
        }
        let isObject = typed ? types.contains(.object) : hasProperties
        let isArray = typed ? types.contains(.array) : hasItems
        if isArray, !isObject { return .array }
        // Declared properties name the query items an exploded object takes; other names join only
        // where `additionalProperties` asks for them (or nothing is declared: a free-form object).
        if isObject { return .object(properties: properties, open: properties.isEmpty ? !closed : extraAllowed && !closed) }
        return .primitive
    }

    /// `raw` (strings from `ParameterReader`) with each string typed as its schema takes it.
    package func coerceParameter(_ raw: JSONValue) -> JSONValue {
        Self.coerce(raw, root)
    }

    /// As `coerceParameter`, with the text of each number read past 2^53 (by its pointer in the
    /// value), so an item's bounds are judged on its digits as a single value's are.
    package func coerceParameterKeepingLiterals(_ raw: JSONValue) -> (value: JSONValue, literals: [String: NumberLiteral]) {
        let value = Self.coerce(raw, root)
        var literals: [String: NumberLiteral] = [:]
        Self.collectLiterals(raw, value, at: "", into: &literals)
        return (value, literals)
    }

    /// Where `coerced` holds a number past 2^53 read from a string in `raw` (the same shape), that string.
    private static func collectLiterals(_ raw: JSONValue, _ coerced: JSONValue, at pointer: String, into literals: inout [String: NumberLiteral]) {
        switch (raw, coerced) {
        case (.string(let text), .number(let n)) where n.magnitude >= NumberLiteral.exactLimit:
            literals[pointer] = NumberLiteral(text)
        case (.array(let texts), .array(let values)):
            for i in texts.indices where i < values.count { collectLiterals(texts[i], values[i], at: pointer + "/\(i)", into: &literals) }
        case (.object(let texts), .object(let values)):
            for (name, text) in texts { if let value = values[name] { collectLiterals(text, value, at: pointer + "/" + JSONPointer.escape(name), into: &literals) } }
        default: break
        }
    }

    private static func coerce(_ raw: JSONValue, _ node: SchemaNode?) -> JSONValue {
        guard let node else { return raw }
        switch raw {
        case .string(let text): return leaf(text, node.applicable)
        case .array(let items):
            let itemNode = node.applicable.lazy.compactMap { n in
                n.keywords.lazy.compactMap { k -> SchemaNode? in if case .items(let s, _) = k { s } else { nil } }.first
            }.first
            return .array(items.map { coerce($0, itemNode) })
        case .object(let members):
            let nodes = node.applicable
            var out: [String: JSONValue] = [:]
            for (name, value) in members {
                var member: SchemaNode?
                search: for n in nodes {
                    for keyword in n.keywords {
                        if case .properties(let props) = keyword, let match = props.first(where: { $0.name == name }) { member = match.schema; break search }
                    }
                }
                if member == nil {
                    member = nodes.lazy.compactMap { n in
                        n.keywords.lazy.compactMap { k -> SchemaNode? in if case .additionalProperties(let s, _, _) = k { s } else { nil } }.first
                    }.first
                }
                out[name] = coerce(value, member)
            }
            return .object(out)
        default: return raw
        }
    }

    /// A text as the type the schema takes: a number only as JSON spells one (and an integer-only
    /// schema only digits, as a primitive parameter is read), a boolean only `true` or `false`.
    private static func leaf(_ text: String, _ nodes: [SchemaNode]) -> JSONValue {
        var types: Set<SchemaKeyword.TypeName> = []
        for node in nodes {
            for case .type(let names, _) in node.keywords { types.formUnion(names) }
        }
        if types.contains(.number) || types.contains(.integer), let spelled = APIContract.number(spelledBy: text),
           spelled.isInteger || types.contains(.number) {
            return .number(spelled.value)
        }
        if types.contains(.boolean), text == "true" || text == "false" { return .bool(text == "true") }
        return .string(text)
    }
}
