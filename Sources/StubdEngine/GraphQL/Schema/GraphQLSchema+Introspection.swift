extension GraphQLSchema {
    /// Why an introspection result could not be read: the JSON pointer of the part (the caller finds
    /// its line and column in the file) and what is wrong.
    package struct IntrospectionError: Error, Sendable, Equatable {
        package let pointer: String
        package let message: String
    }

    /// Reads an introspection result, as `graphql-codegen`, Apollo's `download-schema` and a
    /// server's `__schema` query write it: `{"data": {"__schema": …}}` or `{"__schema": …}`.
    /// GraphQL's own types (`__Type`…) and the built-in scalars are left out, as SDL leaves them out.
    package init(introspection json: JSONValue) throws(IntrospectionError) {
        var base = ""
        var root = json
        if case .object(let top) = json, let data = top["data"] {
            root = data
            base = "/data"
        }
        guard case .object(let wrapper) = root, case .object(let schema)? = wrapper["__schema"] else {
            throw IntrospectionError(pointer: base, message: "not an introspection result: expected {\"__schema\": …} or {\"data\": {\"__schema\": …}}")
        }
        base += "/__schema"
        guard case .array(let entries)? = schema["types"] else {
            throw IntrospectionError(pointer: base, message: "'__schema' has no 'types' list")
        }
        var types: [String: GraphQLSchemaType] = [:]
        for (i, entry) in entries.enumerated() {
            let pointer = "\(base)/types/\(i)"
            guard case .object(let type) = entry, case .string(let name)? = type["name"], case .string(let kindText)? = type["kind"] else {
                throw IntrospectionError(pointer: pointer, message: "a type needs a 'name' and a 'kind'")
            }
            if name.hasPrefix("__") || GraphQLSchema.builtInScalars.contains(name) { continue }
            let kinds: [String: GraphQLSchemaType.Kind] = ["SCALAR": .scalar, "OBJECT": .object, "INTERFACE": .interface, "UNION": .union,
                                                           "ENUM": .enum, "INPUT_OBJECT": .inputObject]
            guard let kind = kinds[kindText] else {
                throw IntrospectionError(pointer: pointer + "/kind", message: "'\(kindText)' is not a type kind (\(kinds.keys.sorted().joined(separator: ", ")))")
            }
            var read = GraphQLSchemaType(name: name, kind: kind, line: 0, column: 0)
            for key in ["fields", "inputFields"] {
                guard case .array(let fields)? = type[key] else { continue }
                for (j, field) in fields.enumerated() {
                    guard case .object(let members) = field, case .string(let fieldName)? = members["name"], let typeRef = members["type"] else {
                        throw IntrospectionError(pointer: "\(pointer)/\(key)/\(j)", message: "a field needs a 'name' and a 'type'")
                    }
                    read.fields[fieldName] = try Self.reference(typeRef, at: "\(pointer)/\(key)/\(j)/type")
                }
            }
            read.interfaces = Self.names(type["interfaces"])
            read.members = kind == .union ? Self.names(type["possibleTypes"]) : []
            read.enumValues = Set(Self.names(type["enumValues"]))
            types[name] = read
        }
        var roots: [String: String] = [:]
        for (operation, key) in [("query", "queryType"), ("mutation", "mutationType"), ("subscription", "subscriptionType")] {
            if case .object(let named)? = schema[key], case .string(let name)? = named["name"] { roots[operation] = name }
        }
        guard let query = roots["query"], types[query]?.kind == .object else {
            throw IntrospectionError(pointer: base + "/queryType", message: "the schema has no query type among its types")
        }
        self.init(types: types, roots: roots)
    }

    private static func names(_ list: JSONValue?) -> [String] {
        guard case .array(let items)? = list else { return [] }
        return items.compactMap { if case .object(let m) = $0, case .string(let name)? = m["name"] { name } else { nil } }
    }

    /// `{"kind": "NON_NULL", "ofType": {"kind": "LIST", "ofType": {"kind": "OBJECT", "name": "Day"}}}` → `[Day]!`.
    private static func reference(_ json: JSONValue, at pointer: String, depth: Int = 0) throws(IntrospectionError) -> GraphQLTypeReference {
        guard depth < 32, case .object(let members) = json, case .string(let kind)? = members["kind"] else {
            throw IntrospectionError(pointer: pointer, message: "a type reference needs a 'kind' (and 'ofType' or 'name')")
        }
        switch kind {
        case "NON_NULL", "LIST":
            guard let inner = members["ofType"] else { throw IntrospectionError(pointer: pointer, message: "\(kind) needs 'ofType'") }
            let of = try reference(inner, at: pointer + "/ofType", depth: depth + 1)
            return kind == "LIST" ? .list(of) : .nonNull(of)
        default:
            guard case .string(let name)? = members["name"] else { throw IntrospectionError(pointer: pointer, message: "a named type reference needs a 'name'") }
            return .named(name)
        }
    }
}
