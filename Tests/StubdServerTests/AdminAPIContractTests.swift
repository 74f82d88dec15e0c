import Foundation
import HTTPTypes
import StubdClient
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// docs/admin-api.yaml is the admin API as it is: `stubd serve --spec docs/admin-api.yaml` answers
/// every StubdClient call and every request of the dashboard, through a relay that writes each
/// exchange down, and each is held to the document by the server's own contract rules
/// (`APIContract`: the request's parameters and body, `AnswerConformance`: the status, the
/// Content-Type and the body's schema). `serve --spec` itself checks only stub traffic (the admin
/// API answers before the stubs are asked), so the test applies the same rules to the admin
/// traffic, after resolving each path as the server does (`RequestTarget`: a `/__s/{id}` prefix off).
@Suite(.serialized) struct AdminAPIContractTests {
    static let document = repositoryRoot.appendingPathComponent("docs/admin-api.yaml")
    static let token = "contract-test-token"

    @Test func everyClientCallAndEveryDashboardRequestIsAnsweredAsTheDocumentSays() async throws {
        let contract = try APIContract.load(spec: Self.document)
        let server = try ServeProcess(["--stubs", exampleStubs.path, "--spec", Self.document.path, "--admin-token", Self.token])
        let relay = try RecordingRelay(to: server.port)
        let stubd = StubdClient(baseURL: relay.url, adminToken: Self.token)

        // Each call once in a named session (the /__s/{id} prefix) and once in the default one.
        try await Self.everyClientCall(stubd.sessionClient("contract"), stubs: server.baseURL.appendingPathComponent("__s/contract"))
        try await Self.everyClientCall(stubd, stubs: server.baseURL)
        try await Self.dashboardRequests(relay.url, session: "contract")
        try await Self.theRestOfTheDocument(relay.url)

        var exercised: Set<String> = []
        let exchanges = try relay.exchanges()
        #expect(exchanges.count > 40, "the relay saw \(exchanges.count) exchanges")
        for exchange in exchanges {
            let check = Self.check(exchange, against: contract)
            if let operation = check.operation { exercised.insert(operation) }
            let answer = String(decoding: exchange.responseBody.prefix(300), as: UTF8.self)
            #expect(check.problems.isEmpty, "\(exchange.method) \(exchange.target) → \(exchange.status) \(answer)\n  \(check.problems.joined(separator: "\n  "))")
        }
        let untried = contract.operations.map(\.signature).filter { !exercised.contains($0) }
        #expect(untried.isEmpty, "documented, but no client call or dashboard request reached them: \(untried)")
    }

    /// The rules are not vacuous: an answer with a renamed field, or with a status the document
    /// does not list, breaks it.
    @Test func anAnswerOutsideTheDocumentIsCaught() throws {
        let contract = try APIContract.load(spec: Self.document)
        let renamed = try Self.exchange("GET", "/__s/t1/__stubd/hits?route=london", status: 200, body: #"{"route": "london", "count": 1}"#)
        let renamedProblems = Self.check(renamed, against: contract).problems
        #expect(renamedProblems.contains { $0.contains("hits") }, "\(renamedProblems)")
        #expect(renamedProblems.contains { $0.contains("count") }, "\(renamedProblems)")

        let undeclared = try Self.exchange("POST", "/__stubd/reset", status: 500, body: #"{"reset": true, "session": ""}"#)
        #expect(Self.check(undeclared, against: contract).problems.contains { $0.contains("no 500 response") })

        let unknown = try Self.exchange("GET", "/__stubd/nothing", status: 404, body: "{}")
        #expect(Self.check(unknown, against: contract).problems.contains { $0.contains("no operation") })
    }

    /// The replayed requests are the dashboard's own: a fetch added to dashboard.js fails this test
    /// until it is replayed (and so checked) above.
    @Test func theDashboardMakesNoRequestThisSuiteDoesNotReplay() throws {
        let script = try String(contentsOf: repositoryRoot.appendingPathComponent("Sources/Stubd/Dashboard/dashboard.js"), encoding: .utf8)
        let calls = try Regex(#"\b(get|post)\("([^"]+)""#)
        var found = Set(script.matches(of: calls).map { "\($0.output[1].substring!) \($0.output[2].substring!)" })
        for match in script.matches(of: try Regex(#"EventSource\(api \+ "([^"]+)""#)) { found.insert("events \(match.output[1].substring!)") }
        #expect(found == Set(Self.dashboardCalls.map(\.source)))
    }

    // MARK: The traffic

    /// Every public call of StubdClient (and of StubControl's extensions) that reaches the admin API.
    static func everyClientCall(_ stubd: StubdClient, stubs: URL) async throws {
        _ = try await stubd.health()
        _ = try await stubd.contract()
        try await stubd.reset()
        let london = URL(string: stubs.absoluteString + "/data/2.5/weather?q=London&appid=KEY")!
        #expect(try await http(london).status == 200)
        #expect(try await http(stubs.appendingPathComponent("no/such/stub")).status == 404)

        #expect(try await stubd.hits("london") == 1)
        #expect(try await stubd.waitForHits("london", count: 1, timeout: .seconds(2)) == 1)
        await #expect(throws: StubdError.self) { try await stubd.waitForHits("paris", count: 1, timeout: .milliseconds(100)) }
        await #expect(throws: StubdError.self) { try await stubd.hits("londn") }
        #expect(try await StubFixture.hitMismatch(stubd, "london", expected: 1) == nil)

        let id = try await stubd.addStub(StubRoute(.get("/runtime/{id}"), response: .json(#"{"runtime": true}"#)))
        try await stubd.removeStub(id: id)
        await #expect(throws: StubdError.self) { try await stubd.removeStub(id: id) }

        try await stubd.setQuotaUsed("wunderground", key: "KEY", used: ["minute": 3])
        try await stubd.advanceClock(by: .seconds(61))
        try await stubd.prefer("code=429")
        try await stubd.prefer(nil)

        let stations = stubd.resource("stations")
        try await stations.seed([["id": "s1", "name": "Test Station"]])
        #expect(try await stations.count() == 1)
        _ = try await stations.itemsJSON()
        await #expect(throws: StubdError.self) { try await stubd.resource("nope").count() }

        #expect(try await stubd.resources().resources == [ResourcesReport.Resource(name: "stations", path: "/data/3.0/stations", count: 1)])

        // The example folder's one scenario is the shop's checkout; an unknown one is a 404.
        #expect(try await stubd.scenarios().scenarios.map(\.name) == ["checkout"])
        try await stubd.scenario("checkout").set("paid")
        #expect(try await stubd.resetScenarios().scenarios.map(\.state) == ["Started"])
        await #expect(throws: StubdError.self) { try await stubd.scenario("nope").set("paid") }
        await #expect(throws: StubdError.self) { try await stubd.scenario("nope").state(forKey: "17") }

        // The example folder has no WebSocket route: the listing is empty, and a name is a 404.
        #expect(try await stubd.webSockets().webSockets.isEmpty)
        await #expect(throws: StubdError.self) { try await stubd.webSockets("chat").received() }
        await #expect(throws: StubdError.self) { try await stubd.webSockets("chat").send("hello") }
        await #expect(throws: StubdError.self) { try await stubd.stream("chat").waitForSent(count: 1, timeout: .zero) }

        _ = try await stubd.allHits()
        _ = try await stubd.forwardedHits()
        _ = try await stubd.coverage()
        #expect(try await stubd.unmatchedReport().count == 1)
        _ = try await stubd.quotas()
        let page = try await stubd.quotas(limit: 1, cursor: nil)
        _ = try await stubd.quotas(limit: 1, cursor: page.next)
        _ = try await stubd.quotaTable()
        _ = try await stubd.requests(limit: 10)
        _ = try await stubd.contractProblems()
        try await stubd.requireRequestsKeepToContract()
        try await HitGenerations(stubd).mark()
    }

    /// One request of dashboard.js: the call as its source writes it, and as it is sent.
    struct DashboardCall {
        let source: String
        let method: String
        let call: String
        let session: String?
        let body: String?
    }

    /// Each `get(…)`, `post(…)` and the EventSource of dashboard.js, with the values the page fills in.
    static let dashboardCalls: [DashboardCall] = [
        DashboardCall(source: "get routes", method: "GET", call: "routes", session: nil, body: nil),
        DashboardCall(source: "get hits", method: "GET", call: "hits", session: nil, body: nil),
        DashboardCall(source: "get requests?limit=100000", method: "GET", call: "requests?limit=100000", session: nil, body: nil),
        DashboardCall(source: "get quotas", method: "GET", call: "quotas", session: nil, body: nil),
        DashboardCall(source: "get sessions", method: "GET", call: "sessions", session: "", body: nil),
        DashboardCall(source: "get clock", method: "GET", call: "clock", session: nil, body: nil),
        DashboardCall(source: "get coverage", method: "GET", call: "coverage", session: nil, body: nil),
        DashboardCall(source: "get health", method: "GET", call: "health", session: nil, body: nil),
        DashboardCall(source: "get contract", method: "GET", call: "contract", session: nil, body: nil),
        DashboardCall(source: "get scenarios", method: "GET", call: "scenarios", session: nil, body: nil),
        DashboardCall(source: "get resources", method: "GET", call: "resources", session: nil, body: nil),
        DashboardCall(source: "get websockets", method: "GET", call: "websockets", session: nil, body: nil),
        DashboardCall(source: "post scenarios/", method: "PUT", call: "scenarios/checkout", session: nil, body: #"{"state":"paid"}"#),
        DashboardCall(source: "post quotas/", method: "PUT", call: "quotas/wunderground", session: nil, body: #"{"key":"KEY","used":{"minute":0,"day":0}}"#),
        DashboardCall(source: "post reset", method: "POST", call: "reset", session: nil, body: "{}"),
        DashboardCall(source: "post quotas/reset", method: "POST", call: "quotas/reset", session: nil, body: "{}"),
        DashboardCall(source: "post clock/advance", method: "POST", call: "clock/advance", session: nil, body: #"{"seconds":60}"#),
        DashboardCall(source: "post clock/set", method: "POST", call: "clock/set", session: nil, body: #"{"time":"2016-08-30T00:00:00-04:00"}"#),
        DashboardCall(source: "events events?all=1", method: "GET", call: "events?all=1", session: nil, body: nil),
    ]

    /// The dashboard's requests as a browser sends them from the page at /__stubd/ui: `?session=`,
    /// the token as the Basic password the page asked for, and on writes the page's own Origin.
    static func dashboardRequests(_ base: URL, session: String) async throws {
        let basic = "Basic " + Data("dashboard:\(token)".utf8).base64EncodedString()
        for request in dashboardCalls {
            let separator = request.call.contains("?") ? "&" : "?"
            let url = URL(string: base.absoluteString + "/__stubd/" + request.call + separator + "session=" + (request.session ?? session))!
            var headers = ["Accept": request.call.hasPrefix("events") ? "text/event-stream" : "application/json", "Authorization": basic]
            if request.method != "GET" {
                headers["Content-Type"] = "application/json"
                headers["Origin"] = base.absoluteString
                headers["Sec-Fetch-Site"] = "same-origin"
            }
            let answer = try await http(url, method: request.method, body: request.body, headers: headers)
            #expect(answer.status == 200, "\(request.method) \(url.path)?\(url.query ?? ""): \(answer.status) \(answer.text)")
        }
    }

    /// What neither the client nor the dashboard's script asks, so that every operation the
    /// document lists is held to it: the page itself, listing runtime stubs, HEAD, DELETE prefer,
    /// and the 401 a call without the token gets.
    static func theRestOfTheDocument(_ base: URL) async throws {
        let bearer = ["Authorization": "Bearer \(token)"]
        for page in ["ui", "ui/index.html", "ui/dashboard.css", "ui/dashboard.js", "stubs", "prefer"] {
            #expect(try await http(URL(string: base.absoluteString + "/__stubd/" + page)!, headers: bearer).status == 200)
        }
        #expect(try await http(URL(string: base.absoluteString + "/__stubd/prefer")!, method: "DELETE", headers: bearer).status == 200)
        #expect(try await http(URL(string: base.absoluteString + "/__stubd/health")!, method: "HEAD").status == 200)
        #expect(try await http(URL(string: base.absoluteString + "/__stubd/routes")!).status == 401)
    }

    // MARK: The check

    /// The operation an exchange is for, and every way it breaks the document; nil and nothing for
    /// a request that is not an admin call.
    static func check(_ exchange: RecordingRelay.Exchange, against contract: APIContract) -> (operation: String?, problems: [String]) {
        guard let components = URLComponents(string: exchange.target), let method = HTTPRequest.Method(exchange.method) else {
            return (nil, ["the relay recorded a request it cannot read: \(exchange.method) \(exchange.target)"])
        }
        let query = (components.queryItems ?? []).map { QueryItem(name: $0.name, value: $0.value) }
        let target = RequestTarget.resolve(path: components.percentEncodedPath, sessionHeader: exchange.header("X-Stubd-Session"),
                                           sessionQuery: query.first { $0.name == "session" }?.value ?? nil)
        guard target.adminCall != nil else { return (nil, []) }
        guard let (operation, _) = contract.operation(method: method, requestPath: target.path) else {
            return (nil, ["the document has no operation for \(method) \(target.path)"])
        }
        var headers = HTTPFields()
        for pair in exchange.headers {
            if let name = HTTPField.Name(pair[0]) { headers.append(HTTPField(name: name, value: pair[1])) }
        }
        let request = RequestHead(method: method, path: target.path, query: query, headers: headers, body: exchange.body)
        var problems = (contract.violations(of: request) ?? []).map { "request \($0.location): \($0.message)" }
        problems += AnswerConformance.violations(status: HTTPResponse.Status(code: exchange.status),
                                                 headerNames: Set(exchange.responseHeaders.map { $0[0].lowercased() }),
                                                 contentType: exchange.responseHeader("Content-Type"), body: exchange.responseBody,
                                                 of: operation, in: contract).map { "answer: \($0.message) (\($0.hint))" }
        return (operation.signature, problems)
    }

    /// An exchange as the relay would write it down, for the check's own test.
    static func exchange(_ method: String, _ target: String, status: Int, body: String) throws -> RecordingRelay.Exchange {
        let record: [String: Any] = ["method": method, "target": target, "headers": [["Host", "127.0.0.1"]], "body": "",
                                     "status": status, "responseHeaders": [["Content-Type", "application/json"]],
                                     "responseBody": Data(body.utf8).base64EncodedString()]
        return try JSONDecoder().decode(RecordingRelay.Exchange.self, from: JSONSerialization.data(withJSONObject: record))
    }
}
