public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The app's in-app shop for a station kit: put it in the cart, pay, then follow the order
/// (`POST /shop/cart`, `POST /shop/pay`, `GET /shop/order`), with completion blocks.
public final class StationShop: Sendable {
    /// The shop's root; a stub server's (session) base URL in tests.
    public let baseURL: URL
    private let session: URLSession

    /// A client of the shop at `baseURL`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// `POST /shop/cart {"item": …}`: `completion` gets the order with the item in it.
    public func addToCart(_ item: String, completion: @escaping @Sendable (Result<StationOrder, WeatherError>) -> Void) {
        JSONCall.send("POST", baseURL.appendingPathComponent("shop/cart"), body: ["item": item], session: session, completion: completion)
    }

    /// `POST /shop/pay`: pays for what is in the cart (a 409 when there is nothing to pay for).
    public func pay(completion: @escaping @Sendable (Result<StationOrder, WeatherError>) -> Void) {
        JSONCall.send("POST", baseURL.appendingPathComponent("shop/pay"), body: [String: String](), session: session, completion: completion)
    }

    /// `GET /shop/order`: the order as it stands.
    public func order(completion: @escaping @Sendable (Result<StationOrder, WeatherError>) -> Void) {
        JSONCall.send("GET", baseURL.appendingPathComponent("shop/order"), session: session, completion: completion)
    }
}
