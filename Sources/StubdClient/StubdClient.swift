public import Foundation
// The documents it exchanges with the server (HealthReport, StubsFingerprint) come with it.
import HTTPTypes
public import StubdProtocol
#if canImport(FoundationNetworking)
package import FoundationNetworking
#endif

/// Talks to a running stubd (`stubd serve`, docker-compose) over its admin API.
///
/// ```swift
/// let stubd = StubdClient(baseURL: URL(string: ProcessInfo.processInfo.environment["STUBD_URL"]!)!)
/// let mine = stubd.session(UUID().uuidString)   // isolated from other tests
/// try await mine.waitForHits("london", count: 1, timeout: .seconds(2))
/// ```
public struct StubdClient: StubControl {
    /// The server's URL, with `/__s/ID` for a session.
    public let baseURL: URL
    /// Sent as `Authorization: Bearer …` on admin calls, for a server started with an admin token.
    public let adminToken: String?
    /// What the admin calls go through: a socket, or the engine in this process (`InProcessStubs`).
    private let transport: URLSession

    /// `adminToken` defaults to `STUBD_ADMIN_TOKEN` from the environment, as the server's does.
    public init(baseURL: URL, adminToken: String? = ProcessInfo.processInfo.environment["STUBD_ADMIN_TOKEN"]) {
        self.init(baseURL: baseURL, adminToken: adminToken, transport: StubdClient.urlSession)
    }

    /// A client whose calls go through `transport`: the in-process front's, which answers them without a socket.
    package init(baseURL: URL, adminToken: String?, transport: URLSession) {
        self.baseURL = baseURL
        self.adminToken = adminToken.flatMap { $0.isEmpty ? nil : $0 }
        self.transport = transport
    }

    /// The server's root URL, without any session prefix.
    public var serverURL: URL {
        let path = baseURL.path
        guard let range = path.range(of: "/__s/") else { return baseURL }
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.path = String(path[..<range.lowerBound])
        return components.url!
    }

    /// A client for session `id` of the same server (`…/__s/ID`), with its own hits, sequences, quotas, journal,
    /// runtime stubs and clock; ``sessionClient(_:)`` gives it as a `StubdClient`.
    public func session(_ id: String) -> any StubControl { sessionClient(id) }

    /// `session(_:)` with its concrete type, for callers that want `StubdClient`'s extra calls.
    public func sessionClient(_ id: String) -> StubdClient {
        StubdClient(baseURL: serverURL.appendingPathComponent("__s").appendingPathComponent(id), adminToken: adminToken, transport: transport)
    }

    /// The session id this client speaks for ("" for the default session).
    public var sessionID: String {
        let path = baseURL.path
        guard let range = path.range(of: "/__s/") else { return "" }
        return String(path[range.upperBound...].prefix { $0 != "/" })
    }

    // MARK: StubControl

    /// Hits in this session on a route name, a pattern or a concrete path (`GET /__stubd/hits?route=`);
    /// a name no route has throws ``StubdError/unknownRoute(route:nearest:)`` with the nearest names,
    /// and a reference that cannot be read (`GET a/b`) throws `RouteReferenceError` (StubdProtocol) before anything is sent.
    public func hits(_ route: RouteReference) async throws -> Int {
        _ = try route.target
        return try await get(HitCount.self, .hits, query: ["route": route.text], route: route.text).hits
    }

    /// Returns the count once `route` has `count` hits: the server holds the call (`GET /__stubd/hits/wait`)
    /// for up to `timeout`, then it throws ``StubdError/waitTimedOut(route:expected:actual:unmatched:nearest:)``.
    public func waitForHits(_ route: RouteReference, count: Int, timeout: Duration) async throws -> Int {
        _ = try route.target
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let reply = try await fetch(.waitForHits, query: ["route": route.text, "count": String(count), "timeout": String(seconds)],
                                    requestTimeout: seconds + 10)
        // 408 is the long-poll's "not yet": the same document, with the count so far.
        guard reply.status == 408 else {
            return try decode(HitWait.self, reply, call: AdminEndpoint.waitForHits, route: route.text).hits
        }
        let wait = try AdminCoding.decode(HitWait.self, from: reply.body)
        let report = try await unmatchedReport()
        throw StubdError.waitTimedOut(route: route.text, expected: count, actual: wait.hits, unmatched: report.count, nearest: report.nearest)
    }

    /// Puts this session back to its start (`POST /__stubd/reset`): hits, sequences, quotas, journal,
    /// runtime stubs, clock and ``prefer(_:)``. On the server's own URL (no session) it resets every session.
    public func reset() async throws {
        _ = try await send(ResetDone.self, .reset)
    }

    /// Adds `route` to this session (`POST /__stubd/stubs`) and returns the id ``removeStub(id:)`` takes;
    /// a stub the server refuses throws ``StubdError/rejected(call:status:detail:)`` saying where and why.
    public func addStub(_ route: StubRoute) async throws -> String {
        try await send(StubAdded.self, .addStub, body: AdminCoding.encode(try route.document())).id
    }

    /// Removes the runtime stub ``addStub(_:)`` returned `id` for (`DELETE /__stubd/stubs/{id}`);
    /// an id this session does not hold throws ``StubdError/rejected(call:status:detail:)``.
    public func removeStub(id: String) async throws {
        let endpoint = AdminEndpoint.removeStub(id: id)
        let reply = try await fetch(endpoint)
        guard (200..<300).contains(reply.status) else { throw Self.rejection(endpoint, reply) }
    }

    /// Sets what `key` has used of `quota` in this session, requests per policy (`["day": 500]`), through
    /// `PUT /__stubd/quotas/{name}`; `key` nil is the key `""` a `global` quota counts under.
    public func setQuotaUsed(_ quota: String, key: String?, used: [String: Int]) async throws {
        _ = try await send(QuotasReport.self, .fillQuota(quota), body: AdminCoding.encode(QuotaFill(key: key, used: used)))
    }

    /// Moves this session's clock forward by `duration` (`POST /__stubd/clock/advance`), so quota windows
    /// pass without the test sleeping.
    public func advanceClock(by duration: Duration) async throws {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        _ = try await send(ClockReport.self, .advanceClock, body: AdminCoding.encode(ClockAdvance(seconds: seconds)))
    }

    // MARK: More

    /// The catalog in force (`GET /__stubd/routes`): each route's name, signature, answers, quotas and faults.
    public func routes() async throws -> RoutesReport {
        try await get(RoutesReport.self, .routes)
    }

    /// Every route's hits in this session, by route name or signature.
    public func allHits() async throws -> [String: Int] {
        let report = try await get(HitsReport.self, .hits)
        return Dictionary(report.routes.map { ($0.route, $0.hits) }, uniquingKeysWith: { a, _ in a })
    }

    /// Requests `serve --proxy` passed on to the real API, by `METHOD /path`.
    public func forwardedHits() async throws -> [String: Int] {
        try await get(HitsReport.self, .hits).forwarded
    }

    /// Which answers, network behaviours and quota states requests reached (see `StubControl.coverage`).
    public func coverage() async throws -> CoverageReport {
        try await get(CoverageReport.self, .coverage)
    }

    /// How many requests matched nothing, and why the latest ones missed their nearest routes.
    public func unmatchedReport() async throws -> (count: Int, nearest: [String]) {
        let count = try await get(HitsReport.self, .hits).unmatched
        guard count > 0 else { return (0, []) }
        let journal = try await get(JournalReport.self, .requests, query: ["limit": "50"])
        let nearest = journal.requests.reversed().compactMap { entry -> String? in
            guard entry.route == nil, let first = entry.nearest?.first else { return nil }
            return "\(entry.method) \(entry.path) vs \(first)"
        }
        return (count, nearest)
    }

    /// The session's quotas and how each key stands: every page (see `quotas(limit:cursor:)`), joined.
    public func quotas() async throws -> QuotasReport {
        var report = try await quotas(limit: QuotasReport.maxPageSize, cursor: nil)
        var keys = Dictionary(uniqueKeysWithValues: report.quotas.map { ($0.name, $0.keys) })
        while let cursor = report.next {
            let page = try await quotas(limit: QuotasReport.maxPageSize, cursor: cursor)
            for quota in page.quotas { keys[quota.name, default: []] += quota.keys }
            report = QuotasReport(session: page.session, now: report.now, quotas: report.quotas, next: page.next)
        }
        return QuotasReport(session: report.session, now: report.now, quotas: report.quotas.map { q in
            QuotasReport.Quota(name: q.name, algorithm: q.algorithm, key: q.key, limits: q.limits, routes: q.routes,
                               keys: keys[q.name] ?? [], keyCount: q.keyCount, maxKeys: q.maxKeys)
        })
    }

    /// One page of `quotas()`: at most `limit` keys over all quotas, from `cursor` (the `next` of
    /// the page before) on.
    public func quotas(limit: Int, cursor: String?) async throws -> QuotasReport {
        var query = ["limit": String(limit)]
        if let cursor { query["cursor"] = cursor }
        return try await get(QuotasReport.self, .quotas, query: query)
    }

    /// The latest requests of the session (`limit` at most), newest last.
    public func requests(limit: Int = 100) async throws -> JournalReport {
        try await get(JournalReport.self, .requests, query: ["limit": String(limit)])
    }

    /// The session's journal as a HAR 1.2 file (`GET /__stubd/requests?format=har`), bodies and all,
    /// secrets scrubbed: what `stubd export har --url` writes. `limit`: the newest that many; nil, all kept.
    public func requestsHAR(limit: Int? = nil) async throws -> Data {
        let reply = try await fetch(.requests, query: ["format": "har"].merging(limit.map { ["limit": String($0)] } ?? [:]) { a, _ in a })
        guard (200..<300).contains(reply.status) else { throw Self.rejection(.requests, reply) }
        return reply.body
    }

    /// Matches this session's requests as if they sent `Prefer: value` when they send none
    /// (`PUT /__stubd/prefer`); nil stops it.
    public func prefer(_ value: String?) async throws {
        _ = try await send(PreferDocument.self, .setPreference, body: AdminCoding.encode(PreferDocument(prefer: value)))
    }

    /// The spec `serve --spec` loaded and its notices on the catalog; `rejected` (404) when none is.
    public func contract() async throws -> ContractReport {
        try await get(ContractReport.self, .contract)
    }

    /// Each journaled request of the session that broke the spec, with the problem (see `StubControl`).
    public func contractProblems() async throws -> [String] {
        let journal = try await requests(limit: 1000)
        return journal.requests.flatMap { entry -> [String] in
            let query = entry.query.keys.sorted().map { "\($0)=\(entry.query[$0]!)" }.joined(separator: "&")
            let request = "\(entry.method) \(entry.path)\(query.isEmpty ? "" : "?" + query)"
            return (entry.contract ?? []).map { "\(request): \($0)" }
        }
    }

    /// The server's health document: version, routes, and the folder it serves with its fingerprint;
    /// throws `unreachable` when nothing answers.
    public func health() async throws -> HealthReport {
        let reply = try await fetch(.health)
        guard (200..<300).contains(reply.status) else { throw Self.rejection(.health, reply) }
        do { return try AdminCoding.decode(HealthReport.self, from: reply.body) } catch {
            throw StubdError.badConfiguration("\(serverURL.absoluteString) answered /__stubd/health with something other than stubd's health document; is STUBD_URL pointing at stubd?")
        }
    }

    // MARK: HTTP

    private static let urlSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 32
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    /// Every scenario of this session with its state (`GET /__stubd/scenarios`).
    public func scenarios() async throws -> ScenariosReport {
        try await get(ScenariosReport.self, .scenarios)
    }

    /// Every scenario of this session back in `Started` (`POST /__stubd/scenarios/reset`); a
    /// ``reset()`` does it too, with everything else.
    @discardableResult
    public func resetScenarios() async throws -> ScenariosReport {
        try await send(ScenariosReport.self, .resetScenarios)
    }

    /// `PUT /__stubd/scenarios/{name}`: the session's scenario `name` put in `state`.
    func setScenario(_ name: String, to state: String, key: String? = nil) async throws -> ScenariosReport.Scenario {
        try await send(ScenariosReport.Scenario.self, .setScenario(name), body: AdminCoding.encode(ScenarioSet(state: state, key: key)))
    }

    /// `GET /__stubd/scenarios/{name}`: one scenario of this session, with its keys when it is keyed.
    func scenario(named name: String) async throws -> ScenariosReport.Scenario {
        try await get(ScenariosReport.Scenario.self, .scenario(name))
    }

    /// Every resource of the catalog with how many items this session holds (`GET /__stubd/resources`).
    public func resources() async throws -> ResourcesReport {
        try await get(ResourcesReport.self, .resources)
    }

    /// `GET /__stubd/resources/{name}`, or `PUT` with `items`: the session's items as a JSON array.
    func resourceItems(_ name: String, setting items: Data? = nil) async throws -> Data {
        let endpoint: AdminEndpoint = items == nil ? .resourceItems(name) : .replaceResourceItems(name)
        let reply = try await fetch(endpoint, body: items)
        guard (200..<300).contains(reply.status) else { throw Self.rejection(endpoint, reply) }
        return reply.body
    }

    /// `GET /__stubd/streams/wait`: held until the streaming route `route` has `count` of `of` in this
    /// session (`sent`: events or messages the server sent; `received`: messages the app sent on a
    /// WebSocket; `open`), or `timeout` passes; the answer says the count either way.
    public func waitForStream(_ route: String, of measure: String = "sent", count: Int, timeout: Duration) async throws -> StreamWait {
        let seconds = max(0, Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        let reply = try await fetch(.waitForStream, query: ["route": route, "of": measure, "count": String(count), "timeout": String(seconds)],
                                    requestTimeout: seconds + 10)
        // 408 is the long-poll's "not yet": the same document, with the count so far.
        guard reply.status == 408 else { return try decode(StreamWait.self, reply, call: .waitForStream) }
        return try AdminCoding.decode(StreamWait.self, from: reply.body)
    }

    /// The session's WebSocket routes with their open sockets and message counts (`GET /__stubd/websockets`).
    public func webSockets() async throws -> WebSocketsReport {
        try await get(WebSocketsReport.self, .webSockets)
    }

    /// `GET /__stubd/websockets/{name}/messages?after=N`: what the app sent on the route.
    func webSocketMessages(_ name: String, after: Int) async throws -> WebSocketMessagesReport {
        try await get(WebSocketMessagesReport.self, .webSocketMessages(name), query: after > 0 ? ["after": String(after)] : [:])
    }

    /// `POST /__stubd/websockets/{name}/messages`: how many open sockets got `push`.
    func pushWebSocketMessage(_ name: String, _ push: WebSocketPush) async throws -> WebSocketPushed {
        try await send(WebSocketPushed.self, .pushWebSocketMessage(name), body: AdminCoding.encode(push))
    }

    private struct Reply {
        let status: Int
        let body: Data
    }

    private func get<T: Decodable>(_ type: T.Type, _ endpoint: AdminEndpoint, query: [String: String] = [:],
                                   route: String? = nil) async throws -> T {
        try decode(type, try await fetch(endpoint, query: query), call: endpoint, route: route)
    }

    private func send<T: Decodable>(_ type: T.Type, _ endpoint: AdminEndpoint, body: Data? = nil) async throws -> T {
        try decode(type, try await fetch(endpoint, body: body), call: endpoint)
    }

    /// The document of a 2xx reply; otherwise the server's problem as an error. A hit count's 404
    /// "No such route" means the name is wrong, not the count: `unknownRoute` with the nearest names.
    private func decode<T: Decodable>(_ type: T.Type, _ reply: Reply, call: AdminEndpoint, route: String? = nil) throws -> T {
        guard (200..<300).contains(reply.status) else {
            if let route, reply.status == 404, let problem = try? AdminCoding.decode(Problem.self, from: reply.body),
               problem.title == Problem.noSuchRoute {
                throw StubdError.unknownRoute(route: route, nearest: problem.nearest ?? [])
            }
            throw Self.rejection(call, reply)
        }
        do { return try AdminCoding.decode(type, from: reply.body) } catch {
            throw StubdError.rejected(call: call.description, status: reply.status,
                                      detail: "the answer is not the \(T.self) document this client expects (\(error)); are client and server the same version?")
        }
    }

    private static func rejection(_ call: AdminEndpoint, _ reply: Reply) -> StubdError {
        let problem = try? AdminCoding.decode(Problem.self, from: reply.body)
        let detail = problem.map { $0.detail.isEmpty ? $0.title : $0.detail } ?? "no detail"
        return StubdError.rejected(call: call.description, status: reply.status, detail: detail)
    }

    private func fetch(_ endpoint: AdminEndpoint, query: [String: String] = [:], body: Data? = nil,
                       requestTimeout: Double = 10) async throws -> Reply {
        let method = endpoint.method.rawValue
        var components = URLComponents(url: baseURL.appendingPathComponent("__stubd").appendingPathComponent(endpoint.path),
                                        resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.timeoutInterval = requestTimeout
        if let adminToken { request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization") }
        if let body { request.httpBody = body }
        // The server takes admin writes only as JSON, bodiless ones (reset) too: see AdminAccess.
        if ["POST", "PUT", "PATCH"].contains(method) { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await transport.data(for: request)
        } catch {
            throw StubdError.unreachable(url: serverURL.absoluteString, reason: error.localizedDescription)
        }
        return Reply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }
}

extension StubdClient {
    /// Quota standing as table rows (quota, key, policy, used/limit, resets in), header first.
    public func quotaTable() async throws -> [[String]] {
        var rows = [["QUOTA", "KEY", "POLICY", "USED", "RESETS IN"]]
        for quota in try await quotas().quotas {
            for key in quota.keys {
                for limit in key.limits {
                    rows.append([quota.name, key.key.isEmpty ? "(global)" : key.key, limit.policy,
                                 "\(limit.used)/\(limit.limit)", "\(limit.resetsIn)s"])
                }
            }
        }
        return rows
    }
}
