import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

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
    /// The catalog in force when the request was read, with libmicrohttpd's form of its answers: the
    /// one that answers it, read once (one published read a request, as the catalog alone was).
    let answers: PreparedAnswers
    var catalog: StubCatalog { answers.catalog }

    /// Why a request is answered before any responder sees it.
    enum Refusal: Error {
        case refused(GeneratedResponse, RequestLogLine)
        /// An absolute-form request (`GET http://host/path`) for a host the folder does not serve:
        /// refused, or passed through with `--proxy-unknown pass`. The head is the request as the
        /// host would get it.
        case unknownHost(authority: String, head: RequestHead, session: String?, RequestLogLine)
    }

    /// Reads the request whose handler call this is; a path that cannot name a stub is refused.
    static func read(_ connection: borrowing Connection, method methodText: String, rawPath: String, body: Data,
                     answers: PreparedAnswers, hosts: HostScope) -> Result<IncomingRequest, Refusal> {
        let catalog = answers.catalog
        let hostFolders = catalog.hostFolders
        guard let method = HTTPRequest.Method(methodText) else {
            // libmicrohttpd takes any run of bytes up to the space; a method is a token (RFC 9110 §9.1).
            return .failure(.refused(.problem(400, title: "Bad method", detail: "a request method is a token such as GET or POST"),
                                     RequestLogLine(method: String(methodText.prefix(20)), path: rawPath, status: 0, session: "",
                                                    latencyMicroseconds: 0, isAdmin: false)))
        }
        let headers = connection.headerFields()
        let query = connection.queryItems()

        // Which host the request is for picks the part of the folder that answers it (see HostScope).
        var path = rawPath
        var session = headers.firstValue(of: .stubdSession)
        // Lent, not retained: a retain and a release of the connection's state on every request (issue 40).
        let tunnelSession = connection.withState { state in
            state.requestArrived()
            return state.tunnelSession
        } ?? nil
        if let absolute = AbsoluteForm(rawPath) {
            // `GET http://host/path`: a client whose proxy setting points at stubd.
            session = session ?? AbsoluteForm.proxySession(headers.firstValue(of: .proxyAuthorization))
            switch hosts.resolve(host: absolute.authority, path: absolute.path, hostFolders: hostFolders) {
            case .path(let scoped): path = scoped
            case .notServed:
                let line = RequestLogLine(method: methodText, path: rawPath, status: 0, session: session ?? "",
                                          latencyMicroseconds: 0, isAdmin: false)
                return .failure(.unknownHost(authority: absolute.authority,
                                             head: RequestHead(method: method, path: absolute.path, query: query, headers: headers, body: body),
                                             session: session, line))
            }
        } else {
            // Inside a CONNECT tunnel: the session its proxy user name named.
            if session == nil { session = tunnelSession }
            if !hostFolders.isEmpty, let host = headers.firstValue(ofCanonicalName: "host"),
               case .path(let scoped) = hosts.resolve(host: host, path: rawPath, hostFolders: hostFolders) {
                // Origin form, for a host with a folder of its own: a TLS connection for that name, a
                // tunnel (CONNECT) to it, or a client whose DNS sends the host here.
                path = scoped
            }
        }
        // `?session=` names the session of an admin call only; `PathCheck` checks the id whatever carried it.
        let target = RequestTarget.resolve(path: path, sessionHeader: session,
                                           sessionQuery: query.first { $0.name == "session" }?.value ?? nil)
        let line = RequestLogLine(method: methodText, path: rawPath, status: 0, session: target.session,
                                  latencyMicroseconds: 0, isAdmin: target.adminCall != nil)
        if let problem = PathCheck.reject(path, session: target.session) {
            return .failure(.refused(problem, line))
        }
        let head = RequestHead(method: method, path: target.path, query: query, headers: headers, body: body,
                               clientAddress: catalog.usesClientAddress ? describeAddress(connection.clientAddress) : "")
        return .success(IncomingRequest(head: head, target: target, logLine: line, answers: answers))
    }
}
