/// One item of a collection, with its id as a path carries it and its JSON written once: a list
/// joins texts already made instead of serializing every item per request.
struct ResourceItem: Sendable {
    let id: String
    let value: JSONValue
    let json: String

    init(id: String, value: JSONValue) {
        self.id = id
        self.value = value
        json = value.serialized
    }
}
