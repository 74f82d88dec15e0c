import HTTPTypes
import StubdEngine

/// A recorded GraphQL request's operation (issue 63): what its route matches on (`graphql:
/// {operationName, variables}`), so the stub answers the operation however the client prints its
/// query, where matching the body's bytes would miss on a re-spaced query or a reordered key.
struct RecordedOperation: Equatable {
    let name: String
    /// The query as the client sent it, kept so the route answers that selection only (compared by
    /// shape), `check --graphql-schema` holds the answer to it, and Apollo's persisted-query hash of
    /// it is known; nil when the request may hold a secret the scrubber could not look into.
    let query: String?
    /// Its shape (`GraphQLDocument.shape`): part of the route's key, so one selection printed two
    /// ways is one route and two selections are two.
    let shape: String
    /// The variables sent; nil when they held a secret (the route then takes any variables).
    let variables: JSONValue?

    /// The query string's names a GraphQL GET carries its request in: not conditions of the route.
    static let queryNames: Set<String> = ["query", "operationName", "variables", "extensions"]

    /// Nil unless `request` is plainly GraphQL (a POST of JSON with a `query` that parses, or of
    /// `application/graphql`, or a GET with `?query=`) and names its operation: an anonymous query,
    /// or a body that only looks like one (`{"query": "paris"}` to a search API), is recorded by its
    /// body as before. `scrubbedBody`: the body once secrets were looked for, nil when it held one.
    init?(_ request: RequestHead, scrubbedBody: JSONValue?, scrubbedQuery: [QueryItem]) {
        guard request.method == .post || request.method == .get else { return nil }
        let read = GraphQLRequest.read(request)
        guard read.unreadable == nil, let text = read.query, case .success(let document)? = read.document,
              let name = read.effectiveOperationName else { return nil }
        self.name = name
        shape = document.shape
        if request.method == .get {
            // A secret in `?query=` or `?variables=` was masked to "*" by the scrubber.
            func masked(_ item: String) -> Bool { scrubbedQuery.contains { $0.name == item && $0.value == "*" } }
            query = masked("query") ? nil : text
            variables = masked("variables") ? nil : read.variables
        } else if case .object(let members)? = scrubbedBody {
            query = text
            variables = members["variables"].flatMap { $0 == .null ? nil : $0 } ?? .object([:])
        } else {
            // A JSON body that held a secret (the scrubber kept no copy of it), or `application/graphql`,
            // which it does not read: neither the query nor the variables are written.
            query = nil
            variables = nil
        }
    }
}
