/// The app's order of a station kit from the weather shop, as `GET /shop/order` reads it.
public struct StationOrder: Sendable, Equatable, Codable {
    /// `open` (the cart is being filled), `paid`, `shipped`.
    public let status: String
    /// What is in it, e.g. `["station-kit"]`.
    public let items: [String]

    /// An order as the shop describes it.
    public init(status: String, items: [String]) {
        self.status = status
        self.items = items
    }
}
