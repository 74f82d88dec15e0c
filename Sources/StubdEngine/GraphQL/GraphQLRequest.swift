package import Foundation
import HTTPTypes
import StubdProtocol

/// What a GraphQL request asks, read once per request from the three ways clients send one:
/// `POST` with a JSON body `{"operationName", "query", "variables", "extensions"}`, `POST` with
/// `Content-Type: application/graphql` (the body is the query), and
/// `GET ?query=…&operationName=…&variables=<JSON>&extensions=<JSON>` (GraphQL over HTTP). A class,
/// so the `RequestHead` that carries it to matching grows by one reference, not by its fields.
package final class GraphQLRequest: Sendable {
    package let operationName: String?
    /// As sent, or as a persisted query's hash found it (`resolving(query:)`); nil when only a hash came.
    package let query: String?
    /// The query read; nil without a query. Read when first asked, once: an Apollo client names
    /// its operation, and routes by name alone (`Op.graphql.json`) never need the query read.
    package var document: Result<GraphQLDocument, GraphQLSyntaxError>? {
        guard let query else { return nil }
        return parsed.withLock { parsed in
            if let parsed { return parsed }
            let document = Result { () throws(GraphQLSyntaxError) in try GraphQLDocument(parsing: query) }
            parsed = document
            return document
        }
    }
    private let parsed = Locked<Result<GraphQLDocument, GraphQLSyntaxError>?>(nil)
    /// An object; `{}` when the request sends none (or `null`).
    package let variables: JSONValue
    /// `extensions.persistedQuery.sha256Hash` (Apollo's automatic persisted queries), lower-cased.
    package let persistedHash: String?
    /// Why the request could not be read as GraphQL at all (a body that is not JSON, a batch);
    /// matching says it instead of a route's reason.
    package let unreadable: String?

    init(operationName: String?, query: String?, variables: JSONValue, persistedHash: String?, unreadable: String? = nil) {
        self.operationName = operationName
        self.query = query
        self.variables = variables
        self.persistedHash = persistedHash
        self.unreadable = unreadable
    }

    private static func unreadable(_ why: String) -> GraphQLRequest {
        GraphQLRequest(operationName: nil, query: nil, variables: .object([:]), persistedHash: nil, unreadable: why)
    }

    /// The same request with the query a persisted hash stands for.
    package func resolving(query: String) -> GraphQLRequest {
        GraphQLRequest(operationName: operationName, query: query, variables: variables, persistedHash: persistedHash)
    }

    /// The operation the request runs: the name it sends, else its document's only operation's.
    package var effectiveOperationName: String? {
        if let operationName { return operationName }
        if case .success(let document)? = document { return document.operation(named: nil)?.name }
        return nil
    }

    /// Reads `request` as GraphQL. Only `GET` and `POST` carry GraphQL; any other method reads as
    /// unreadable, so a GraphQL route never answers it.
    package static func read(_ request: RequestHead) -> GraphQLRequest {
        switch request.method {
        case .get, .head: return fromQueryString(request)
        case .post: break
        default: return unreadable("GraphQL is sent with GET or POST, not \(request.method)")
        }
        let mediaType = request.header(.contentType)?.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if mediaType == "application/graphql" {
            let fromURL = fromQueryString(request)
            return GraphQLRequest(operationName: fromURL.operationName, query: String(decoding: request.body, as: UTF8.self),
                                  variables: fromURL.variables, persistedHash: nil)
        }
        let body: JSONValue
        do { body = try JSONParser.parse(request.body) } catch {
            return unreadable("the body is not JSON (\(error.message) at line \(error.line), column \(error.column)); "
                              + "send {\"query\": …} with Content-Type: application/json, or the query alone with Content-Type: application/graphql")
        }
        guard case .object(let members) = body else {
            if case .array = body { return unreadable("the body is a batch of operations, which stubd does not answer yet; send one operation per request") }
            return unreadable("the body is JSON but not an object with a \"query\"")
        }
        return fields(query: members["query"], operationName: members["operationName"], variables: members["variables"],
                      extensions: members["extensions"])
    }

    private static func fromQueryString(_ request: RequestHead) -> GraphQLRequest {
        func item(_ name: String) -> String? { request.query.first { $0.name == name }?.value ?? nil }
        var problem: String?
        func json(_ name: String) -> JSONValue? {
            guard let text = item(name), !text.isEmpty else { return nil }
            do { return try JSONParser.parse(text) } catch {
                problem = problem ?? "the query parameter \(name) is not JSON (\(error.message) at column \(error.column))"
                return nil
            }
        }
        let variables = json("variables"), extensions = json("extensions")
        if let problem { return unreadable(problem) }
        return fields(query: item("query").map { .string($0) }, operationName: item("operationName").map { .string($0) },
                      variables: variables, extensions: extensions)
    }

    private static func fields(query: JSONValue?, operationName: JSONValue?, variables: JSONValue?, extensions: JSONValue?) -> GraphQLRequest {
        var queryText: String?
        switch query {
        case .string(let text)?: queryText = text
        case nil, .null?: break
        default: return unreadable("\"query\" must be a string")
        }
        var name: String?
        switch operationName {
        case .string(let text)? where !text.isEmpty: name = text
        case nil, .null?, .string?: break
        default: return unreadable("\"operationName\" must be a string")
        }
        var vars = JSONValue.object([:])
        switch variables {
        case .object?: vars = variables!
        case nil, .null?: break
        default: return unreadable("\"variables\" must be an object")
        }
        var hash: String?
        if case .object(let ext)? = extensions, case .object(let persisted)? = ext["persistedQuery"],
           case .string(let sha)? = persisted["sha256Hash"] {
            hash = sha.lowercased()
        }
        if queryText == nil, hash == nil { return unreadable("the request sends no \"query\" (nor a persisted query's hash)") }
        return GraphQLRequest(operationName: name, query: queryText, variables: vars, persistedHash: hash)
    }
}
