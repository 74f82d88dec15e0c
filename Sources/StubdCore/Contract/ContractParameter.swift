/// A path, query, header or cookie parameter of an operation.
package struct ContractParameter: Sendable {
    package enum Place: String, Sendable {
        case path, query, header, cookie
    }

    package let name: String
    /// `name` lower-cased, as a header's is compared: once, not per request.
    package let canonicalName: String
    package let place: Place
    package let required: Bool
    package let schema: JSONSchema?

    package init(name: String, place: Place, required: Bool, schema: JSONSchema?) {
        self.name = name
        self.canonicalName = name.lowercased()
        self.place = place
        self.required = required
        self.schema = schema
    }
}
