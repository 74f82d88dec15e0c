import Foundation
import HTTPTypes
import StubdProtocol

/// One session's items of one resource. Every operation runs under one lock, so concurrent writes
/// to a session are serialised: a read-modify-write (a PATCH) never loses another's update.
///
/// What a session adds counts against the sessions' storage budget (`SessionStorage`, issue 57): a
/// thousand sessions each filling `maxItems` items of 64 KiB was memory nothing bounded. A write is
/// charged before the lock is taken (a charge may evict other sessions, taking their locks) for at
/// most what it can keep, and the difference handed back once the item is made.
package final class ResourceStore: Sendable {
    package let definition: ResourceDefinition
    private let state: Locked<State>
    private let storage: SessionStorageAccount

    private struct State {
        var collections: [String: ResourceCollection] = [:]
        var count = 0
        /// The next id `increment` gives: one past the largest whole-number id seen.
        var nextNumber = 1
        /// The items' `charged`, summed.
        var charged = 0
        /// Set by a session reset: the store is no longer the session's, and what it is charged was handed back.
        var retired = false
    }

    /// Beyond an item's JSON: its id, its place in the collection, the field counts.
    static let itemOverhead = 64

    static func cost(of item: ResourceItem) -> Int { item.json.utf8.count + itemOverhead }

    init(_ definition: ResourceDefinition, storage: SessionStorageAccount = .unbounded()) {
        self.storage = storage
        self.definition = definition
        var state = State()
        // The seed was checked at load (objects, ids present and unique): nothing here can fail.
        try? ResourceStore.fill(&state, with: definition.seed, definition)
        self.state = Locked(state)
    }

    private static func fill(_ state: inout State, with items: [JSONValue], _ definition: ResourceDefinition,
                             charging: Bool = false) throws(ResourceRefusal) {
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
            var made = ResourceItem(id: id, value: item)
            if charging { made.charged = cost(of: made) }
            fresh.charged += made.charged
            fresh.collections[parent, default: ResourceCollection()].put(made)
            fresh.count += 1
            if case .number(let n) = idValue, n.rounded() == n, n >= Double(fresh.nextNumber), n < 1e15 { fresh.nextNumber = Int(n) + 1 }
        }
        fresh.retired = state.retired
        state = fresh
    }

    /// A charge for this session, or the 507 a resource write answers when the budget has no room.
    private func charge(_ bytes: Int) throws(ResourceRefusal) {
        do { try storage.charge(bytes) } catch {
            throw ResourceRefusal(status: ResourceRefusal.insufficientStorage, title: "Session storage full", detail: error.description)
        }
    }

    /// The session was reset: hands back what the items were charged; a write still under way in
    /// this store hands back its own charge when it finds the store retired.
    func retire() {
        let charged = state.withLock { state in
            state.retired = true
            defer { state.charged = 0 }
            return state.charged
        }
        storage.release(charged)
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
        let total = items.reduce(0) { $0 + $1.serialized.utf8.count + ResourceStore.itemOverhead }
        try charge(total)
        let released: Int
        do {
            released = try state.withLock { state throws(ResourceRefusal) -> Int in
                let before = state.charged
                try ResourceStore.fill(&state, with: items, definition, charging: true)
                return state.retired ? total : before + (total - state.charged)
            }
        } catch {
            storage.release(total)
            throw error
        }
        storage.release(released)
    }

    /// Adds `body` under `parent` with an id by the resource's strategy; `stamp`: the parent fields
    /// the path gives. `random` draws the session's numbers for a UUID.
    func create(parent: String, body: JSONValue, stamp: [String: JSONValue], random: () -> UInt64) throws(ResourceRefusal) -> ResourceItem {
        guard case .object(var fields) = body else { throw .badItem("a \(definition.name) item is a JSON object") }
        for (k, v) in stamp { fields[k] = v }
        // The body as sent and an id the strategy adds fit in one more overhead.
        let estimate = JSONValue.object(fields).serialized.utf8.count + 2 * ResourceStore.itemOverhead
        try charge(estimate)
        let made: (item: ResourceItem, refund: Int)
        do {
            made = try state.withLock { state throws(ResourceRefusal) -> (ResourceItem, Int) in
                let item = try create(in: &state, parent: parent, fields: fields, random: random, charging: estimate)
                return (item, state.retired ? estimate : estimate - item.charged)
            }
        } catch {
            storage.release(estimate)
            throw error
        }
        storage.release(made.refund)
        return made.item
    }

    private func create(in state: inout State, parent: String, fields: [String: JSONValue], random: () -> UInt64,
                        charging estimate: Int) throws(ResourceRefusal) -> ResourceItem {
        var fields = fields
        do {
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
            var item = ResourceItem(id: id, value: .object(fields))
            item.charged = min(estimate, ResourceStore.cost(of: item))
            state.collections[parent, default: ResourceCollection()].put(item)
            state.count += 1
            if !state.retired { state.charged += item.charged }
            if case .number(let n) = idValue, n.rounded() == n, n >= Double(state.nextNumber), n < 1e15 { state.nextNumber = Int(n) + 1 }
            return item
        }
    }

    /// Replaces the item with `change(old)`: the id and parent fields are kept as they were.
    func modify(parent: String, id: String, stamp: [String: JSONValue],
                _ change: (JSONValue) throws(ResourceRefusal) -> JSONValue) throws(ResourceRefusal) -> ResourceItem {
        // Charged by what the change adds, under the lock when the budget has room now; when it has
        // not, the lock is let go, other sessions are evicted for the room, and the change made again.
        var reserved = 0
        while true {
            let attempt = try state.withLock { state throws(ResourceRefusal) -> (item: ResourceItem?, refund: Int, needs: Int) in
                try modify(in: &state, parent: parent, id: id, stamp: stamp, change, reserved: reserved)
            }
            if let item = attempt.item {
                storage.release(attempt.refund)
                return item
            }
            do { try charge(attempt.needs - reserved) } catch {
                storage.release(reserved)
                throw error
            }
            reserved = attempt.needs
        }
    }

    /// The change made under the lock: the item, with what of `reserved` to hand back; or nil and the
    /// bytes to charge first, when the item grows by more than `reserved` and the budget has no room now.
    private func modify(in state: inout State, parent: String, id: String, stamp: [String: JSONValue],
                        _ change: (JSONValue) throws(ResourceRefusal) -> JSONValue,
                        reserved: Int) throws(ResourceRefusal) -> (item: ResourceItem?, refund: Int, needs: Int) {
        do {
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
            var item = ResourceItem(id: id, value: .object(fields))
            item.charged = ResourceStore.cost(of: item)
            let growth = state.retired ? 0 : item.charged - old.charged
            if growth > reserved, !storage.chargeIfRoom(growth - reserved) { return (nil, 0, growth) }
            if !state.retired { state.charged += item.charged - old.charged }
            state.collections[parent]!.put(item)
            // Reserved and not used, or the bytes a smaller item no longer holds.
            return (item, growth > reserved ? 0 : reserved - growth, 0)
        }
    }

    func delete(parent: String, id: String) -> Bool {
        let removed: (found: Bool, charged: Int) = state.withLock { state in
            guard let removed = state.collections[parent]?.remove(id) else { return (false, 0) }
            state.count -= 1
            if state.retired { return (true, 0) }
            state.charged -= removed.charged
            return (true, removed.charged)
        }
        storage.release(removed.charged)
        return removed.found
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
