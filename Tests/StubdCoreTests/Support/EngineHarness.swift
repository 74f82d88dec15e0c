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
    /// `--validate requests=MODE`: what a request that breaks the spec gets (`RequestValidationMode`,
    /// which is the server's target's, spelled again here).
    enum Validation: String { case strict, report, off }

    let engine: StubEngine
    /// The admin API on the same engine, as the server puts it under `/__stubd/`: a moved test moves
    /// the clock, fills a quota or reads the journal through the call it made over the socket.
    let endpoints: AdminEndpoints
    /// `serve --spec`: the specs requests are held to, as `StubResponder` holds them (`ContractedAnswer`).
    let contracts: ContractSet?
    let validation: Validation
    /// The folder answered, read again by `reload()`.
    let folder: URL
    /// Who may call the admin API, checked by `http(_:method:body:headers:)` before an admin call as
    /// `AdminResponder` checks it (token, Host, cross-site writes, JSON writes); nil checks nothing,
    /// for tests whose subject is the call's answer.
    var access: AdminAccess? = nil

    /// `maxRenderedBytes`, `maxSessions`, `journalCapacity` and `notice` are the engine's, as `StubServer.Options` sets them.
    init(_ stubs: TempStubs, maxRenderedBytes: Int = StubEngine.defaultMaxRenderedBytes, maxSessions: Int = 1000, journalCapacity: Int = 1000,
         notice: (@Sendable (String) -> Void)? = nil, contracts: ContractSet? = nil, validation: Validation = .report,
         maskedHeaders: [String] = [], maxRuntimeStubs: Int = 10_000, graphQLSchema: GraphQLSchema? = nil) throws {
        try self.init(folder: stubs.url, maxRenderedBytes: maxRenderedBytes, maxSessions: maxSessions, journalCapacity: journalCapacity,
                      notice: notice, contracts: contracts, validation: validation, maskedHeaders: maskedHeaders, maxRuntimeStubs: maxRuntimeStubs,
                      graphQLSchema: graphQLSchema)
    }

    /// A folder of the repository's (`plainStubs`, `exampleStubs`) rather than a temporary one.
    /// With `contracts`, each stub is held to them as `StubServer` loads a folder (every problem
    /// at once, as `CatalogLoadError`), and each request as `validation` says.
    /// `maskedHeaders` (`--mask-header`) and `maxRuntimeStubs` are the admin API's, as `StubServer.Options` sets them.
    /// `graphQLSchema` (`--graphql-schema`): GraphQL requests held to it, as `validation` says.
    init(folder: URL, maxRenderedBytes: Int = StubEngine.defaultMaxRenderedBytes, maxSessions: Int = 1000, journalCapacity: Int = 1000,
         notice: (@Sendable (String) -> Void)? = nil, contracts: ContractSet? = nil, validation: Validation = .report,
         maskedHeaders: [String] = [], maxRuntimeStubs: Int = 10_000, graphQLSchema: GraphQLSchema? = nil) throws {
        let catalog = try Self.load(folder, contracts: contracts)
        engine = StubEngine(catalog: catalog, journalCapacity: journalCapacity, maxSessions: maxSessions, maxRenderedBytes: maxRenderedBytes, notice: notice,
                            specs: contracts, contractRequests: validation.rawValue, graphQLSchema: graphQLSchema)
        endpoints = AdminEndpoints(engine: engine, contracts: contracts, maskedHeaders: maskedHeaders, maxRuntimeStubs: maxRuntimeStubs)
        self.contracts = contracts
        self.validation = validation
        self.folder = folder
    }

    /// `folder` loaded as `StubServer` loads it: with `contracts`, each stub held to them, every problem at once.
    private static func load(_ folder: URL, contracts: ContractSet?) throws(CatalogLoadError) -> StubCatalog {
        let catalog = try StubCatalog.load(stubs: folder)
        if let contracts {
            let check = StubContractCheck(catalog: catalog, contracts: contracts)
            if !check.problems.isEmpty { throw CatalogLoadError(root: folder.path, problems: check.problems) }
        }
        return catalog
    }

    /// The folder read again and swapped in, as `StubServer.reload()` (and its watcher) does.
    func reload() throws(CatalogLoadError) {
        engine.install(try Self.load(folder, contracts: contracts))
    }

    /// `target` is a path with an optional `?query`; a query's values are taken as written (no `%` decoding).
    func answer(_ target: String, method: HTTPRequest.Method = .get, headers: KeyValuePairs<String, String> = [:], body: String = "",
                session: String = "") -> EngineAnswer {
        let mark = target.firstIndex(of: "?")
        let path = String(target[..<(mark ?? target.endIndex)])
        let query = mark.map { queryItems(parsing: target[target.index(after: $0)...]) } ?? []
        return answer(RequestHead(method: method, path: path, query: query, headers: fields(headers), body: Data(body.utf8)), session: session)
    }

    /// `head` through the specs (`ContractedAnswer`, as the libmicrohttpd front's `StubResponder` asks) and the engine.
    func answer(_ head: RequestHead, session: String) -> EngineAnswer {
        var outcome: Outcome
        switch ContractedAnswer.answer(head, session: session, engine: engine, contracts: contracts, checked: validation != .off,
                                       strict: validation == .strict) {
        case .answer(let answered): outcome = answered
        case .refused(let refusal): return EngineAnswer(status: refusal.status.code, headers: refusal.headers, body: refusal.body)
        case .passed: return EngineAnswer(status: 404, headers: [:], body: Data())
        }
        if let job = outcome.deferred { outcome = engine.render(job) }
        switch outcome.answer {
        case let .canned(canned, extra):
            var all = canned.headers
            all.append(contentsOf: extra.list)
            return EngineAnswer(status: canned.status.code, headers: all, body: canned.body, fault: canned.fault)
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
        return admin(method, call: name, query: query, body: Data(body.utf8), session: session)
    }

    /// An admin call with its query already read.
    func admin(_ method: HTTPRequest.Method, call name: String, query: [QueryItem], body: Data, session: String) -> EngineAnswer {
        let reply: AdminReply = if let endpoint = AdminEndpoint(method: method, call: name) {
            endpoints.answer(endpoint, query: query, body: body, session: engine.session(session))
        } else {
            .response(AdminEndpoints.noSuchCall(method: method, call: name))
        }
        guard case .response(let generated) = reply else {
            Issue.record("\(method) /__stubd/\(name) holds the connection: a server's to answer, not the harness's")
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
    /// The fault the front breaks the connection with instead of sending this answer (a client sees
    /// no status at all); nil for an answer that is sent.
    var fault: Fault? = nil

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
}
