import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A quote of the day, as the (imaginary) quotes API sends it.
public struct Quote: Decodable, Equatable, Sendable {
    /// The quote's number.
    public let id: Int
    /// What was said.
    public let text: String
    /// Who said it.
    public let author: String
}

/// The app's client for the quotes API, with the completion-handler call apps of this kind still use.
public struct QuoteClient: Sendable {
    /// Where the API lives: the real one in the app, the stub server's `baseURL` in tests.
    public let baseURL: URL
    /// What it sends requests through: `.shared` in the app, the stub server's `urlSession` in tests.
    public let session: URLSession

    /// A client for the API at `baseURL`, through `session`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// `GET /v1/quotes/ID.json`.
    public func quote(id: Int) async throws -> Quote {
        let (data, response) = try await session.data(from: baseURL.appendingPathComponent("v1/quotes/\(id).json"))
        guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
            throw URLError(.badServerResponse)
        }
        return try JSONDecoder().decode(Quote.self, from: data)
    }

    /// The same, for callers that take a completion block.
    public func quote(id: Int, completion: @escaping @Sendable (Result<Quote, any Error>) -> Void) {
        Task { completion(await Result { try await quote(id: id) }) }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
