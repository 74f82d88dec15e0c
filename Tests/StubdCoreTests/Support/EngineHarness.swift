import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// The engine answering a Stubs folder with no socket (issue 59): a request value in, through the
/// engine's one entry (`StubEngine.answer(_:session:)`, as every front), the answer's status,
/// headers and body out, in a session of the test's naming, as libmicrohttpd's front would
/// send them (a template left to the front is rendered here, as the front renders it off the
/// worker). For tests whose subject is the engine: templates, quotas, sequences, sessions, the
/// journal. What the wire carries (framing, delays in real time, streams, faults, TLS) stays in
/// StubdServerTests, through a real server.
struct EngineHarness {
    let engine: StubEngine
    /// The admin API on the same engine, as the server puts it under `/__stubd/`: a moved test moves
    /// the clock, fills a quota or reads the journal through the call it made over the socket.
    let endpoints: AdminEndpoints

    /// `maxRenderedBytes`, `maxSessions` and `notice` are the engine's, as `StubServer.Options` sets them.
    init(_ stubs: TempStubs, maxRenderedBytes: Int = StubEngine.defaultMaxRenderedBytes, maxSessions: Int = 1000,
         notice: (@Sendable (String) -> Void)? = nil) throws {
        try self.init(folder: stubs.url, maxRenderedBytes: maxRenderedBytes, maxSessions: maxSessions, notice: notice)
    }

    /// A folder of the repository's (`plainStubs`, `exampleStubs`) rather than a temporary one.
    init(folder: URL, maxRenderedBytes: Int = StubEngine.defaultMaxRenderedBytes, maxSessions: Int = 1000,
         notice: (@Sendable (String) -> Void)? = nil) throws {
        engine = StubEngine(catalog: try StubCatalog.load(stubs: folder), maxSessions: maxSessions, maxRenderedBytes: maxRenderedBytes,
                            notice: notice)
        endpoints = AdminEndpoints(engine: engine)
    }

    /// `target` is a path with an optional `?query`; a query's values are taken as written (no `%` decoding).
    func answer(_ target: String, method: HTTPRequest.Method = .get, headers: KeyValuePairs<String, String> = [:], body: String = "",
                session: String = "") -> EngineAnswer {
        let mark = target.firstIndex(of: "?")
        let path = String(target[..<(mark ?? target.endIndex)])
        let query = mark.map { queryItems(parsing: target[target.index(after: $0)...]) } ?? []
        var outcome = engine.answer(RequestHead(method: method, path: path, query: query, headers: fields(headers), body: Data(body.utf8)),
                                    session: session)!
        if let job = outcome.deferred { outcome = engine.render(job) }
        switch outcome.answer {
        case let .canned(canned, extra):
            var all = canned.headers
            all.append(contentsOf: extra.list)
            return EngineAnswer(status: canned.status.code, headers: all, body: canned.body)
        case .generated(let generated):
            return EngineAnswer(status: generated.status.code, headers: generated.headers, body: generated.body)
        }
    }

    /// An admin call, as `/__stubd/<call>` would take it: `call` is the path after `/__stubd/` with an
    /// optional `?query`, read as `answer` reads one. A call the API does not know gets the server's
    /// 404 or 405; a long-poll (`hits/wait`, `streams/wait`) is the server's to hold, so it is an issue.
    func admin(_ method: HTTPRequest.Method = .get, _ call: String, body: String = "", session: String = "") -> EngineAnswer {
        let mark = call.firstIndex(of: "?")
        let name = String(call[..<(mark ?? call.endIndex)])
        let query = mark.map { queryItems(parsing: call[call.index(after: $0)...]) } ?? []
        let reply: AdminReply = if let endpoint = AdminEndpoint(method: method, call: name) {
            endpoints.answer(endpoint, query: query, body: Data(body.utf8), session: engine.session(session))
        } else {
            .response(AdminEndpoints.noSuchCall(method: method, call: name))
        }
        guard case .response(let generated) = reply else {
            Issue.record("\(method) /__stubd/\(call) holds the connection: a server's to answer, not the harness's")
            return EngineAnswer(status: 0, headers: [:], body: Data())
        }
        return EngineAnswer(status: generated.status.code, headers: generated.headers, body: generated.body)
    }

    /// A route's hits in the session (`GET /__stubd/hits?route=`), as `StubdClient.hits` reads them.
    func hits(_ route: String, session: String = "") throws -> Int {
        try AdminCoding.decode(HitCount.self, from: admin(.get, "hits?route=\(route)", session: session).body).hits
    }

    /// The session's journal, newest last (`GET /__stubd/requests`), as `StubdClient.requests` reads it.
    func requests(limit: Int = 100, session: String = "") throws -> JournalReport {
        try AdminCoding.decode(JournalReport.self, from: admin(.get, "requests?limit=\(limit)", session: session).body)
    }
}

/// An answer as `EngineHarness` gives it.
struct EngineAnswer {
    let status: Int
    let headers: HTTPFields
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
}
