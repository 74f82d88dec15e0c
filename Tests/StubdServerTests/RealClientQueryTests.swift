import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import Testing

/// What real OpenWeatherMap clients send (issue 14, item 4), sent by a real client: the documented
/// rewrite that points a Python client with its URL built in at stubd. How the example Stubs answer
/// `APPID` in capitals and `q=City,CC`, with no socket: RealClientQueryAnswerTests in StubdCoreTests.
@Suite struct RealClientQueryTests {
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
}
