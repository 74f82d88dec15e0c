import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// What real OpenWeatherMap clients send (issue 14, item 4): `APPID` in capitals (the service takes
/// the name in any case) and `q=City,CC`. The example Stubs must answer them as the service does:
/// what the engine matches and counts, with no socket. Moved from RealClientQueryTests
/// (StubdServerTests), which keeps the documented Python client's rewrite, a real client on the wire.
@Suite struct RealClientQueryAnswerTests {
    @Test(arguments: ["/data/2.5/weather?q=London,GB&APPID=k", "/data/2.5/weather?q=London&appid=k",
                      "/data/2.5/weather?q=London&AppId=k", "/data/2.5/weather?APPID=k&q=London%2CGB&units=metric"])
    func theExampleAnswersLondonHoweverAClientSpellsIt(path: String) throws {
        try withEngine(exampleStubs) { server in
            let r = server.get(path)
            #expect(r.status == 200, "\(path) → \(r.status) \(r.text)")
            #expect(r.json["name"] as? String == "London", "\(path) → \(r.text)")
        }
    }

    @Test func withoutAKeyInAnyCaseTheAnswerIsThe401() throws {
        try withEngine(exampleStubs) { server in
            let r = server.get("/data/2.5/weather?q=London,GB")
            #expect(r.status == 401)
            #expect(r.json["cod"] as? Int == 401)
        }
    }

    @Test func theQuotaCountsAppidAndAPPIDAsOneKey() async throws {
        let server = try EngineHarness(folder: exampleStubs)
        // The example's quota counts the real clock's minutes: the fill and the refused call share one.
        try await waitOutMinuteBoundary()
        let filled = server.http("/__stubd/quotas/openweathermap", method: "PUT", body: #"{"key": "k1", "used": {"minute": 59}}"#)
        #expect(filled.status == 200, "\(filled.text)")
        #expect(server.get("/data/2.5/weather?q=London&appid=k1").status == 200)
        let over = server.get("/data/2.5/weather?q=London&APPID=k1")
        #expect(over.status == 429, "APPID=k1 is the same key as appid=k1: \(over.status) \(over.text)")
        #expect(server.get("/data/2.5/weather?q=London&APPID=k2").status == 200)
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
