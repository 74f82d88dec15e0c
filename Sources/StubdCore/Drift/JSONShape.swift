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

    init(of value: JSONValue) {
        kinds = [JSONShape.kind(of: value)]
        switch value {
        case .object(let members): fields = members.mapValues(JSONShape.init(of:))
        case .array(let values):
            if let first = values.first {
                itemShape = [values.dropFirst().reduce(JSONShape(of: first)) { $0.merged(with: JSONShape(of: $1)) }]
            }
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
