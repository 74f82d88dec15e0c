import Foundation
import StubdEngine
import StubdProtocol

extension AdminEndpoints {
    /// The operation a journaled request ran and its variables, for `GET /__stubd/requests` (and the
    /// Swift helpers that count operations): read again from the body as an export shows it (secret
    /// fields masked), only for a path a GraphQL route listens on. Nil when the request is not
    /// GraphQL or its body was let go (the session's body budget).
    func graphQLCall(_ entry: JournalEntry, _ endpoints: GraphQLEndpoints) -> GraphQLCall? {
        let body = entry.bodies?.shown(for: entry, masking: journalMasking).requestBody ?? Data()
        let head = RequestHead(method: entry.method, path: entry.path, query: entry.query, headers: entry.headers, body: body)
        guard endpoints.serves(head) else { return nil }
        let request = GraphQLRequest.read(head)
        guard request.unreadable == nil, request.query != nil || request.operationName != nil || request.persistedHash != nil else { return nil }
        let variables = (try? EmbeddedJSON(parsing: request.variables.serialized)) ?? .object([:])
        return GraphQLCall(operationName: request.effectiveOperationName, variables: variables)
    }
}
