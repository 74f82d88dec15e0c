package import HTTPTypes

/// The answers a GraphQL server gives before any route is asked, as Apollo Server 4 words them.
package enum GraphQLAnswers {
    /// A persisted query's hash that nothing registered: 200 with the error Apollo's client
    /// retries on (it then sends the hash with the query). Apollo Server 4 answers 200 and
    /// `Cache-Control: private, no-cache, must-revalidate` (errors/index.ts, getPersistedQueryErrorHttp).
    package static let persistedQueryNotFound = GeneratedResponse.json(
        .ok, errors(message: "PersistedQueryNotFound", code: "PERSISTED_QUERY_NOT_FOUND"),
        headers: [.cacheControl: "private, no-cache, must-revalidate"])

    /// A query sent with a hash that is not its SHA-256: Apollo Server 4's `BadRequestError`, 400.
    package static let hashMismatch = GeneratedResponse.json(
        .badRequest, errors(message: "provided sha does not match query", code: "BAD_REQUEST"))

    private static func errors(message: String, code: String) -> JSONValue {
        .object(["errors": .array([.object(["message": .string(message), "extensions": .object(["code": .string(code)])])])])
    }
}
