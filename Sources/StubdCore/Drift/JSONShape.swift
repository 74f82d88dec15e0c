import StubdEngine

/// The shape of a JSON value, as a client's decoder sees it: the kinds found at a place (`string`,
/// `number`…), the fields of its objects, and one merged shape for all of an array's items, so an
/// answer with three items and one with five compare by what an item looks like.
struct JSONShape: Equatable {
    var kinds: Set<String>
    var fields: [String: JSONShape] = [:]
    /// The items' merged shape, held in an array because a struct cannot hold itself; empty for
    /// an empty array (or no array), whose items have no shape to compare.
    private var itemShape: [JSONShape] = []

    var items: JSONShape? { itemShape.first }

    /// Built place by place under the comparison's deadline (a body may hold 300,000 keys).
    init(of value: JSONValue, _ deadline: inout DriftComparison.Deadline) throws(DriftComparison.DeadlinePassed) {
        try deadline.check()
        kinds = [JSONShape.kind(of: value)]
        switch value {
        case .object(let members):
            fields.reserveCapacity(members.count)
            for (name, member) in members { fields[name] = try JSONShape(of: member, &deadline) }
        case .array(let values):
            guard var shape = try values.first.map({ first throws(DriftComparison.DeadlinePassed) in try JSONShape(of: first, &deadline) }) else { break }
            for item in values.dropFirst() { shape = shape.merged(with: try JSONShape(of: item, &deadline)) }
            itemShape = [shape]
        default: break
        }
    }

    /// A place that held either shape: kinds and fields together.
    func merged(with other: JSONShape) -> JSONShape {
        var out = self
        out.kinds.formUnion(other.kinds)
        out.fields.merge(other.fields) { $0.merged(with: $1) }
        switch (items, other.items) {
        case let (a?, b?): out.itemShape = [a.merged(with: b)]
        case (nil, let b?): out.itemShape = [b]
        default: break
        }
        return out
    }

    /// `string|null`.
    var kindText: String { kinds.sorted().joined(separator: "|") }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
