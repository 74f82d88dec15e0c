package import StubdEngine

/// A schema as an XML body reads it: which members are attributes, what each element is called, which
/// arrays are wrapped, and whether a text is a number (OpenAPI's `xml` object, 3.0.3 §4.7.26). The
/// renderer writes a JSON value by it and `XMLBodyDecoder` reads an XML body back by it, so both
/// sides name elements alike.
///
/// Read from the spec's own JSON, not from the compiled `JSONSchema`: the `xml` object is no JSON
/// Schema keyword, so the compiler keeps none of it. Children are resolved when asked for, so a
/// schema that refers to itself (a tree) costs one level per level of the body.
package struct XMLSchemaGuide: Sendable {
    /// OpenAPI's `xml` object, each field from the first schema part that gives it.
    package struct Hints: Sendable, Equatable {
        package var name: String?
        package var namespace: String?
        package var prefix: String?
        package var attribute = false
        package var wrapped = false
    }

    /// The document the schema's `$ref`s point into (`#/components/schemas/Pet`).
    let document: JSONValue
    /// The schema objects that describe the value together: the schema itself, what its `$ref`s name,
    /// and the branches of its `allOf`, `oneOf` and `anyOf`, the schema's own first.
    let parts: [[String: JSONValue]]
    /// The component the first `$ref` names (`Pet` for `#/components/schemas/Pet`).
    package let componentName: String?
    package let hints: Hints

    /// Parts gathered per schema: a `$ref` chain or an `allOf` tree this wide is a spec's mistake.
    private static let maxParts = 64

    package init(schema: JSONValue, in document: JSONValue) {
        self.document = document
        var parts: [[String: JSONValue]] = []
        var componentName: String?
        var pending = [schema]
        var followed: Set<String> = []
        while !pending.isEmpty, parts.count < Self.maxParts {
            guard case .object(let part) = pending.removeFirst() else { continue }
            parts.append(part)
            if case .string(let ref)? = part["$ref"], followed.insert(ref).inserted,
               let tokens = JSONPointer.tokens(ofFragment: ref), let target = JSONPointer.resolve(tokens, in: document) {
                if componentName == nil, let last = tokens.last { componentName = Self.componentName(last) }
                pending.append(target)
            }
            for keyword in ["allOf", "oneOf", "anyOf"] {
                if case .array(let branches)? = part[keyword] { pending += branches }
            }
        }
        self.parts = parts
        self.componentName = componentName
        var hints = Hints()
        // The schema's own `xml` first: a property's hints beside a `$ref` (OpenAPI 3.1) win over the component's.
        for part in parts {
            guard case .object(let xml)? = part["xml"] else { continue }
            if hints.name == nil, case .string(let s)? = xml["name"] { hints.name = s }
            if hints.namespace == nil, case .string(let s)? = xml["namespace"] { hints.namespace = s }
            if hints.prefix == nil, case .string(let s)? = xml["prefix"] { hints.prefix = s }
            if case .bool(true)? = xml["attribute"] { hints.attribute = true }
            if case .bool(true)? = xml["wrapped"] { hints.wrapped = true }
        }
        self.hints = hints
    }

    /// `Pet` from `#/components/schemas/Pet`; `Pet` from a split spec's `schemas/Pet.yaml`.
    private static func componentName(_ token: String) -> String {
        var name = token.split(separator: "/").last.map(String.init) ?? token
        for ext in [".yaml", ".yml", ".json"] where name.lowercased().hasSuffix(ext) { name.removeLast(ext.count) }
        return name
    }

    /// The JSON types the schema allows, `type` as written or implied (`properties` → object, `items` → array).
    package var types: Set<String> {
        var found: Set<String> = []
        for part in parts {
            switch part["type"] {
            case .string(let t)?: found.insert(t)
            case .array(let ts)?: for case .string(let t) in ts { found.insert(t) }
            default: break
            }
            if part["properties"] != nil || part["additionalProperties"] != nil { found.insert("object") }
            if part["items"] != nil { found.insert("array") }
        }
        return found
    }

    /// Whether the schema describes an object or an array, which XML spells as elements. A schema of a
    /// string (a token, a document stubd knows nothing of) holds the body's text as it is instead.
    package var isStructured: Bool {
        let types = self.types
        return types.contains("object") || types.contains("array")
    }

    /// Whether a null is allowed: `nullable: true` (3.0) or `null` among the types (3.1).
    package var allowsNull: Bool {
        types.contains("null") || parts.contains { $0["nullable"] == .bool(true) }
    }

    /// The declared properties' names, sorted: the order members are written in.
    package var propertyNames: [String] {
        var names: Set<String> = []
        for part in parts { if case .object(let properties)? = part["properties"] { names.formUnion(properties.keys) } }
        return names.sorted()
    }

    /// The guide of property `name`, from the first part that declares it.
    package func property(_ name: String) -> XMLSchemaGuide? {
        for part in parts {
            if case .object(let properties)? = part["properties"], let schema = properties[name] {
                return XMLSchemaGuide(schema: schema, in: document)
            }
        }
        return nil
    }

    /// The guide of an array's items.
    package var items: XMLSchemaGuide? {
        for part in parts {
            if let schema = part["items"], case .object = schema { return XMLSchemaGuide(schema: schema, in: document) }
        }
        return nil
    }
}
