import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing
import HTTPTypes

/// What real OpenWeatherMap clients send (issue 14, item 4): `APPID` in capitals (the service takes
/// the name in any case) and `q=City,CC`. The example Stubs must answer them as the service does.
@Suite struct RealClientQueryTests {
    @Test(arguments: ["/data/2.5/weather?q=London,GB&APPID=k", "/data/2.5/weather?q=London&appid=k",
                      "/data/2.5/weather?q=London&AppId=k", "/data/2.5/weather?APPID=k&q=London%2CGB&units=metric"])
    func theExampleAnswersLondonHoweverAClientSpellsIt(path: String) async throws {
        try await withServer(exampleStubs) { server in
            let r = try await get(server.baseURL, path)
            #expect(r.status == 200, "\(path) → \(r.status) \(r.text)")
            #expect(r.json["name"] as? String == "London", "\(path) → \(r.text)")
        }
    }

    /// The documented way (docs/testing-from-swift.md) to point a Python client with its URL built in
    /// at stubd, run as written.
    @Test func theDocumentedRequestsRewriteSendsABuiltInURLToStubd() async throws {
        try requirePython(modules: "requests")
        let page = exampleStubs.deletingLastPathComponent().appendingPathComponent("docs/testing-from-swift.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Clients with no base-URL setting").dropFirst().first)
        let snippet = try #require(section.components(separatedBy: "```python\n").dropFirst().first?.components(separatedBy: "```").first)
        let code = snippet.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : String($0) }
            .joined(separator: "\n")
        try await withServer(exampleStubs) { server in
            let script = code.replacingOccurrences(of: "http://127.0.0.1:8080", with: server.baseURL.absoluteString) + """
                # A client with its URL built in, as pyowm's are:
                answer = requests.get("https://api.openweathermap.org/data/2.5/weather", params={"q": "London,GB", "APPID": "k"})
                print(answer.status_code, answer.json()["name"])
                """
            let r = try run(testPython, ["-c", script])
            #expect(r.status == 0, "\(r.error)")
            #expect(r.output == "200 London\n", "\(r.output) \(r.error)")
        }
    }

    @Test func withoutAKeyInAnyCaseTheAnswerIsThe401() async throws {
        try await withServer(exampleStubs) { server in
            let r = try await get(server.baseURL, "/data/2.5/weather?q=London,GB")
            #expect(r.status == 401)
            #expect(r.json["cod"] as? Int == 401)
        }
    }

    @Test func theQuotaCountsAppidAndAPPIDAsOneKey() async throws {
        try await withServer(exampleStubs) { server in
            let fill = URL(string: server.baseURL.absoluteString + "/__stubd/quotas/openweathermap")!
            // The example's quota counts the real clock's minutes: the fill and the refused call share one.
            try await waitOutMinuteBoundary()
            let filled = try await http(fill, method: "PUT", body: #"{"key": "k1", "used": {"minute": 59}}"#)
            #expect(filled.status == 200, "\(filled.text)")
            #expect(try await get(server.baseURL, "/data/2.5/weather?q=London&appid=k1").status == 200)
            let over = try await get(server.baseURL, "/data/2.5/weather?q=London&APPID=k1")
            #expect(over.status == 429, "APPID=k1 is the same key as appid=k1: \(over.status) \(over.text)")
            #expect(try await get(server.baseURL, "/data/2.5/weather?q=London&APPID=k2").status == 200)
        }
    }

    @Test func namesAreExactUnlessTheManifestSaysAnyCase() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - name: exact
                request: { path: /w, query: { appid: "*" } }
                response: { status: 200 }
              - name: loose
                request: { path: /v, query: { appid: "*", q: [a, "a,b"] }, queryNames: any-case }
                response: { status: 200 }
            """])
        let catalog = try StubCatalog.load(stubs: stubs.url)
        func answers(_ path: String, _ query: KeyValuePairs<String, String?>) -> Bool {
            let items = query.map { QueryItem(name: $0.key, value: $0.value) }
            if case .matched = catalog.match(RequestHead(method: .get, path: path, query: items)) { return true }
            return false
        }
        #expect(!answers("/w", ["APPID": "k"]))
        #expect(answers("/w", ["appid": "k"]))
        #expect(answers("/v", ["APPID": "k", "q": "a,b"]))
        #expect(answers("/v", ["Appid": "k", "q": "a"]))
        #expect(!answers("/v", ["APPID": "k", "q": "A"]), "values stay exact")
        #expect(!answers("/v", ["APPID": "k", "Q": "c"]))
    }

    @Test func anUnknownQueryNamesSettingIsALoadErrorWithTheChoices() throws {
        let stubs = try TempStubs(["stubd.yml": """
            defaults: { queryNames: ignore }
            routes:
              - request: { path: /w }
                response: { status: 200 }
            """])
        #expect {
            _ = try StubCatalog.load(stubs: stubs.url)
        } throws: { error in
            "\(error)".contains("stubd.yml:1:") && "\(error)".contains("unknown queryNames 'ignore'") && "\(error)".contains("any-case")
        }
    }
}
