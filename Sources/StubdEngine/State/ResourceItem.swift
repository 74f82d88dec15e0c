/// One item of a collection, with its id as a path carries it and its JSON written once: a list
/// joins texts already made instead of serializing every item per request.
package struct ResourceItem: Sendable {
    let id: String
    let value: JSONValue
    let json: String
    /// Bytes this item counts against the sessions' storage budget (`ResourceStore.cost`); 0 for a seed
    /// item, which the catalog holds for every session alike.
    var charged = 0

    init(id: String, value: JSONValue) {
        self.id = id
        self.value = value
        json = value.serialized
    }
}
