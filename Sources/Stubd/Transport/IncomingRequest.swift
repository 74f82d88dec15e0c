import CMicroHTTPD
import Foundation
import StubdCore

/// One request as the responders see it, read from libmicrohttpd once (method, path, headers,
/// query, body, the session it names). A value on the worker's stack: the plain canned route still
/// allocates nothing of ours for it.
struct IncomingRequest {
    /// What the engine matches: the path without its session prefix.
    var head: RequestHead
    /// An admin call, and the session the request names.
    let target: RequestTarget
    /// The log line so far; a responder adds what it learns (the session an admin call used).
    var logLine: RequestLogLine

    /// Why a request is answered before any responder sees it.
    enum Refusal: Error {
        case refused(GeneratedResponse, RequestLogLine)
    }

    /// Reads the request whose handler call this is; a path that cannot name a stub is refused.
    static func read(_ connection: OpaquePointer, method: String, rawPath: String, body: Data,
                     readClientAddress: Bool) -> Result<IncomingRequest, Refusal> {
        var headers: [(name: String, value: String)] = []
        _ = withUnsafeMutablePointer(to: &headers) { MHD_get_connection_values(connection, .HEADER_KIND, headerCollector, $0) }
        var query: [(name: String, value: String?)] = []
        _ = withUnsafeMutablePointer(to: &query) { MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, queryCollector, $0) }

        // `?session=` names the session of an admin call only; `PathCheck` checks the id whatever carried it.
        let target = RequestTarget.resolve(path: rawPath,
                                           sessionHeader: RequestHead.header("x-stubd-session", in: headers),
                                           sessionQuery: query.first { $0.name == "session" }?.value ?? nil)
        let line = RequestLogLine(method: method, path: rawPath, status: 0, session: target.session,
                                  latencyMicroseconds: 0, isAdmin: target.adminCall != nil)
        if let problem = PathCheck.reject(rawPath, session: target.session) {
            return .failure(.refused(problem, line))
        }
        let head = RequestHead(method: method, path: target.path, query: query, headers: headers, body: body,
                               clientAddress: readClientAddress ? describeAddress(shim_client_address(connection)) : "")
        return .success(IncomingRequest(head: head, target: target, logLine: line))
    }
}

private let headerCollector: MHD_KeyValueIterator = { cls, _, key, value in
    let list = cls!.assumingMemoryBound(to: [(name: String, value: String)].self)
    if let key { list.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? "")) }
    return .YES
}

private let queryCollector: MHD_KeyValueIterator = { cls, _, key, value in
    let list = cls!.assumingMemoryBound(to: [(name: String, value: String?)].self)
    if let key { list.pointee.append((String(cString: key), value.map { String(cString: $0) })) }
    return .YES
}
