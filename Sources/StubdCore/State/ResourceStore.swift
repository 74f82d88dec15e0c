import Foundation
import HTTPTypes
import StubdProtocol

/// One session's items of one resource. Every operation runs under one lock, so concurrent writes
/// to a session are serialised: a read-modify-write (a PATCH) never loses another's update.
package final class ResourceStore: Sendable {
    package let definition: ResourceDefinition
    private let state: Locked<State>

    private struct State {
        var collections: [String: ResourceCollection] = [:]
        var count = 0
        /// The next id `increment` gives: one past the largest whole-number id seen.
        var nextNumber = 1
    }

    init(_ definition: ResourceDefinition) {
        self.definition = definition
        var state = State()
        // The seed was checked at load (objects, ids present and unique): nothing here can fail.
        try? ResourceStore.fill(&state, with: definition.seed, definition)
        self.state = Locked(state)
    }

    private static func fill(_ state: inout State, with items: [JSONValue], _ definition: ResourceDefinition) throws(ResourceRefusal) {
        var fresh = State()
        guard items.count <= definition.maxItems else {
            throw ResourceRefusal(status: ResourceRefusal.insufficientStorage, title: "Too many items",
                                  detail: "\(items.count) items given; \(definition.name) holds at most \(definition.maxItems) per session (maxItems)")
        }
        for (i, item) in items.enumerated() {
            guard case .object(let fields) = item, let idValue = fields[definition.idField], let id = ResourceDefinition.text(idValue),
                  idValue != .null else {
                throw .badItem("item \(i) is not an object with a '\(definition.idField)' field")
            }
            if let why = ResourceDefinition.refusal(ofID: id) { throw .badItem("item \(i): \(why)") }
            let parent = definition.parentKey(of: item)
            if fresh.collections[parent]?.item(id) != nil { throw .badItem("item \(i): \(definition.idField) '\(id)' is given twice") }
            fresh.collections[parent, default: ResourceCollection()].put(ResourceItem(id: id, value: item))
            fresh.count += 1
            if case .number(let n) = idValue, n.rounded() == n, n >= Double(fresh.nextNumber), n < 1e15 { fresh.nextNumber = Int(n) + 1 }
        }
        state = fresh
    }

    // MARK: Reading

    /// The items under `parent` whose fields equal every filter: how many, and the window
    /// `offset..<offset+limit` of them as one JSON array, written from the items' texts under the lock.
    /// A filter no item under `parent` has a field for is not one: an app's `?appid=KEY` or `?lang=en`
    /// says nothing about the items, so it filters nothing (once one item has the field, it filters).
    func list(parent: String, filters: [(field: String, value: String)], offset: Int, limit: Int?) -> (total: Int, array: String) {
        // Each filter's value read as a number once, not each item's number written as text.
        let asked = filters.map { (field: $0.field, text: $0.value, number: Double($0.value)) }
        return state.withLock { state in
            guard let collection = state.collections[parent] else { return (0, "[]") }
            let items = collection.items
            let filters = asked.filter { collection.hasField($0.field) }
            var array = "["
            var taken = 0
            func take(_ item: ResourceItem) {
                if taken > 0 { array += "," }
                array += item.json
                taken += 1
            }
            if filters.isEmpty {
                let start = min(offset, items.count)
                // `start + limit` overflowed and trapped for `?offset=1&limit=9223372036854775807`.
                let end = limit.map { $0 < items.count - start ? start + $0 : items.count } ?? items.count
                array.reserveCapacity(2 + items[start..<end].reduce(0) { $0 + $1.json.utf8.count + 1 })
                for item in items[start..<end] { take(item) }
                return (items.count, array + "]")
            }
            var total = 0
            for item in items where ResourceStore.matches(item.value, filters) {
                if total >= offset, limit.map({ taken < $0 }) ?? true { take(item) }
                total += 1
            }
            return (total, array + "]")
        }
    }

    /// Every filter equals the item's field of its name, as text (`?done=true`, `?userId=3` for 3 or "3").
    private static func matches(_ value: JSONValue, _ filters: [(field: String, text: String, number: Double?)]) -> Bool {
        guard case .object(let fields) = value else { return false }
        for filter in filters {
            switch fields[filter.field] {
            case .string(let s)?: if s != filter.text { return false }
            case .number(let n)?: if filter.number != n { return false }
            case .bool(let b)?: if filter.text != (b ? "true" : "false") { return false }
            case .null?: if filter.text != "null" { return false }
            default: return false
            }
        }
        return true
    }

    func read(parent: String, id: String) -> String? {
        state.withLock { $0.collections[parent]?.item(id)?.json }
    }

    /// Every item, parents in key order: what `GET /__stubd/resources/{name}` shows.
    package func allItems() -> [JSONValue] {
        state.withLock { state in state.collections.keys.sorted().flatMap { state.collections[$0]!.items.map(\.value) } }
    }

    package var count: Int { state.withLock { $0.count } }

    // MARK: Writing

    /// Replaces every item (`PUT /__stubd/resources/{name}`), all or nothing.
    package func replaceAll(_ items: [JSONValue]) throws(ResourceRefusal) {
        // The same bound as an item sent to the collection: an item set here is then patched and listed as any other.
        for (i, item) in items.enumerated() where definition.itemLimits.excess(of: item) != nil {
            throw ResourceRefusal(status: .contentTooLarge, title: "Item too large",
                                  detail: "item \(i) takes more than \(definition.maxItemBytes) bytes as JSON; an item of \(definition.name) may take \(definition.maxItemBytes) (maxItemBytes)")
        }
        try state.withLock { state throws(ResourceRefusal) in try ResourceStore.fill(&state, with: items, definition) }
    }

    /// Adds `body` under `parent` with an id by the resource's strategy; `stamp`: the parent fields
    /// the path gives. `random` draws the session's numbers for a UUID.
    func create(parent: String, body: JSONValue, stamp: [String: JSONValue], random: () -> UInt64) throws(ResourceRefusal) -> ResourceItem {
        guard case .object(var fields) = body else { throw .badItem("a \(definition.name) item is a JSON object") }
        for (k, v) in stamp { fields[k] = v }
        return try state.withLock { state throws(ResourceRefusal) -> ResourceItem in
            guard state.count < definition.maxItems else {
                throw ResourceRefusal(status: ResourceRefusal.insufficientStorage, title: "Too many items",
                                      detail: "\(definition.name) already holds \(definition.maxItems) items in this session, the most it may (maxItems): delete some, or reset the session")
            }
            let idValue: JSONValue
            switch definition.idStrategy {
            case .increment:
                idValue = .number(Double(state.nextNumber))
            case .uuid:
                idValue = .string(ResourceStore.uuid(random(), random()))
            case .body:
                switch fields[definition.idField] {
                case .string(let s)?: idValue = .string(s)
                case .number(let n)?: idValue = .number(n)
                default:
                    throw .badItem("\(definition.name) takes its ids from the body: send a '\(definition.idField)' string or number")
                }
            }
            let id = ResourceDefinition.text(idValue)!
            if let why = ResourceDefinition.refusal(ofID: id) { throw .badItem(why) }
            if state.collections[parent]?.item(id) != nil {
                throw ResourceRefusal(status: .conflict, title: "Id taken",
                                      detail: "\(definition.name) already has an item with \(definition.idField) '\(id)'")
            }
            fields[definition.idField] = idValue
            let item = ResourceItem(id: id, value: .object(fields))
            state.collections[parent, default: ResourceCollection()].put(item)
            state.count += 1
            if case .number(let n) = idValue, n.rounded() == n, n >= Double(state.nextNumber), n < 1e15 { state.nextNumber = Int(n) + 1 }
            return item
        }
    }

    /// Replaces the item with `change(old)`: the id and parent fields are kept as they were.
    func modify(parent: String, id: String, stamp: [String: JSONValue],
                _ change: (JSONValue) throws(ResourceRefusal) -> JSONValue) throws(ResourceRefusal) -> ResourceItem {
        try state.withLock { state throws(ResourceRefusal) -> ResourceItem in
            guard let old = state.collections[parent]?.item(id), case .object(let oldFields) = old.value else {
                throw .notFound(definition, id)
            }
            guard case .object(var fields) = try change(old.value) else { throw .badItem("a \(definition.name) item is a JSON object") }
            fields[definition.idField] = oldFields[definition.idField]
            for (k, v) in stamp { fields[k] = v }
            // A patch adds to what is there: without this, PATCH after PATCH grew one item past any size.
            if let excess = definition.itemLimits.excess(of: .object(fields)) {
                throw ResourceRefusal(status: .unprocessableContent, title: "Item too large",
                                      detail: excess == .bytes
                                          ? "the changed item would take more than \(definition.maxItemBytes) bytes as JSON, the most an item of \(definition.name) may (maxItemBytes); nothing was changed"
                                          : "the changed item would nest deeper than \(JSONLimits.parserDepth) levels; nothing was changed")
            }
            let item = ResourceItem(id: id, value: .object(fields))
            state.collections[parent]!.put(item)
            return item
        }
    }

    func delete(parent: String, id: String) -> Bool {
        state.withLock { state in
            guard state.collections[parent]?.remove(id) != nil else { return false }
            state.count -= 1
            return true
        }
    }

    /// A version 4 UUID from two random numbers.
    static func uuid(_ a: UInt64, _ b: UInt64) -> String {
        let high = (a & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func hex(_ v: UInt64, _ digits: Int) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: max(0, digits - s.count)) + s
        }
        return "\(hex(high >> 32, 8))-\(hex((high >> 16) & 0xFFFF, 4))-\(hex(high & 0xFFFF, 4))-\(hex(low >> 48, 4))-\(hex(low & 0xFFFF_FFFF_FFFF, 12))"
    }
}
