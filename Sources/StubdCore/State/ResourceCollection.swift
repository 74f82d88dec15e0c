/// The items under one parent (or the whole resource when it has none), in the order they came,
/// with an index by id so reading one is a lookup however many there are.
struct ResourceCollection: Sendable {
    private(set) var items: [ResourceItem] = []
    private var positions: [String: Int] = [:]

    var count: Int { items.count }

    func item(_ id: String) -> ResourceItem? { positions[id].map { items[$0] } }

    /// Adds or replaces in place (a replaced item keeps its place in the order).
    mutating func put(_ item: ResourceItem) {
        if let at = positions[item.id] {
            items[at] = item
        } else {
            positions[item.id] = items.count
            items.append(item)
        }
    }

    mutating func remove(_ id: String) -> ResourceItem? {
        guard let at = positions.removeValue(forKey: id) else { return nil }
        let removed = items.remove(at: at)
        for i in at..<items.count { positions[items[i].id] = i }
        return removed
    }
}
