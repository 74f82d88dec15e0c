public import Foundation

/// One resource of the server (`resources:` in stubd.yml) as a session holds it: read its items,
/// or seed the ones a test starts from. `server.resource("todos")`.
public struct StubResource: Sendable {
    /// The resource's name: its path's last literal segment unless `name:` gives one.
    public let name: String
    let client: StubdClient

    /// The session's items, decoded as `Item` (`GET /__stubd/resources/{name}`).
    public func items<Item: Decodable>(as type: Item.Type) async throws -> [Item] {
        try JSONDecoder().decode([Item].self, from: try await client.resourceItems(name))
    }

    /// The session's items as the server wrote them: a JSON array.
    public func itemsJSON() async throws -> Data { try await client.resourceItems(name) }

    /// How many items the session holds.
    public func count() async throws -> Int {
        let items = try JSONSerialization.jsonObject(with: try await client.resourceItems(name)) as? [Any]
        return items?.count ?? 0
    }

    /// Nil when the session holds `expected` items; otherwise the failure text an assertion records,
    /// with the items it holds: `Expected 3 todos, was 2: {"id":1,"title":"a"}, {"id":2,"title":"b"}`.
    public func countMismatch(expected: Int) async throws -> String? {
        let items = (try JSONSerialization.jsonObject(with: try await itemsJSON()) as? [Any]) ?? []
        guard items.count != expected else { return nil }
        let shown = items.prefix(5).map { item -> String in
            let data = (try? JSONSerialization.data(withJSONObject: item, options: [.sortedKeys])) ?? Data()
            let text = String(decoding: data, as: UTF8.self)
            return text.count > 100 ? text.prefix(99) + "…" : text
        }
        let more = items.count > 5 ? ", … (\(items.count - 5) more)" : ""
        return "Expected \(expected) \(name), was \(items.count)" + (items.isEmpty ? "" : ": " + shown.joined(separator: ", ") + more)
    }

    /// Replaces the session's items with `items` (`PUT /__stubd/resources/{name}`); a reset brings back the seed.
    public func seed<Item: Encodable>(_ items: [Item]) async throws {
        _ = try await client.resourceItems(name, setting: try JSONEncoder().encode(items))
    }
}

extension StubControl {
    /// The resource `name` in this session: `try await server.resource("todos").count()`.
    public func resource(_ name: String) -> StubResource {
        StubResource(name: name, client: adminClient)
    }
}
