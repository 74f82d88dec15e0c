import HTTPTypes
import StubdEngine

/// A recorded GraphQL request's operation (issue 63): what its route matches on (`graphql:
/// {operationName, variables}`), so the stub answers the operation however the client prints its
/// query, where matching the body's bytes would miss on a re-spaced query or a reordered key.
struct RecordedOperation: Equatable {
    let name: String
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
        guard read.unreadable == nil, read.query != nil, case .success? = read.document,
              let name = read.effectiveOperationName else { return nil }
        self.name = name
        if request.method == .get {
            // A secret in `?variables=` was masked to "*" by the scrubber.
            let masked = scrubbedQuery.contains { $0.name == "variables" && $0.value == "*" }
            variables = masked ? nil : read.variables
        } else if case .object(let members)? = scrubbedBody {
            variables = members["variables"].flatMap { $0 == .null ? nil : $0 } ?? .object([:])
        } else {
            variables = scrubbedBody == nil && !request.body.isEmpty && request.header(.contentType)?.contains("graphql") != true
                ? nil : read.variables
        }
    }
}
