public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The app's account screen: who is signed in, from the app's GraphQL API (`POST /graphql`, the
/// `Me` operation, as Apollo iOS sends one), with a completion block like the rest of the app.
public final class AccountService: Sendable {
    /// The GraphQL endpoint; a stub server's `/graphql` in tests.
    public let endpoint: URL
    private let session: URLSession

    /// A client of the GraphQL API at `endpoint`.
    public init(endpoint: URL, session: URLSession = .shared) {
        self.endpoint = endpoint
        self.session = session
    }

    /// The query as the app sends it; a stub answers it by its operation's name (`graphql/Me.graphql.json`).
    public static let meQuery = "query Me { me { id name } }"

    /// `completion` gets the signed-in account, or the first of the answer's GraphQL `errors`.
    public func me(completion: @escaping @Sendable (Result<Account, WeatherError>) -> Void) {
        let body = Request(operationName: "Me", query: Self.meQuery, variables: [:])
        JSONCall.send("POST", endpoint, body: body, session: session) { (result: Result<Answer, WeatherError>) in
            completion(result.flatMap { answer in
                if let error = answer.errors?.first { return .failure(.graphQL(error.message)) }
                guard let me = answer.data?.me else { return .failure(.decoding("the answer has no data.me")) }
                return .success(me)
            })
        }
    }

    /// What a GraphQL client posts.
    struct Request: Encodable, Sendable {
        let operationName: String
        let query: String
        let variables: [String: String]
    }

    /// A GraphQL answer: `data`, `errors`, or both.
    struct Answer: Decodable, Sendable {
        struct Data: Decodable, Sendable { let me: Account? }
        struct Error: Decodable, Sendable { let message: String }
        let data: Data?
        let errors: [Error]?
    }
}

/// The signed-in user, as the `Me` operation selects it.
public struct Account: Codable, Sendable, Equatable {
    public let id: String
    public let name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
