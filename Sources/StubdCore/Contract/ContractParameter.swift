/// A path, query, header or cookie parameter of an operation.
package struct ContractParameter: Sendable {
    package enum Place: String, Sendable {
        case path, query, header, cookie
    }

    package let name: String
    package let place: Place
    package let required: Bool
    package let schema: JSONSchema?
}
