import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdTestSupport
import Testing

/// `stubd serve --proxy`: what it passes on to the real API is counted, logged once, and, once
/// recorded, answered locally from then on (issue 29). The real API is another `stubd serve`,
/// whose own hit counts say how often it was called.
@Suite(.serialized) struct ProxiedRequestTests {
    static func realAPI() throws -> (ServeProcess, TempStubs) {
        let stubs = try TempStubs(["data/2.5/weather.json": #"{"name":"London","temp":1.0}"#])
        return (try ServeProcess(["--stubs", stubs.url.path]), stubs)
    }

    /// How many times the real API was asked for GET `path`.
    static func calls(_ api: ServeProcess, _ path: String) async throws -> Int {
        let hits = try await get(api.baseURL, "/__stubd/hits?route=" + "GET \(path)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        return hits.json["hits"] as? Int ?? -1
    }

    @Test func aProxiedRequestIsAHitOfItsPathInItsSessionAndOneLogLine() async throws {
        let (api, _) = try Self.realAPI()
        let proxy = try ServeProcess(["--stubs", try TempStubs([:]).url.path, "--proxy", api.baseURL.absoluteString])
        for _ in 0..<2 {
            let answer = try await get(proxy.baseURL, "/data/2.5/weather", headers: ["X-Stubd-Session": "t1"])
            #expect(answer.status == 200, "\(answer.text)")
        }
        let session = try await get(proxy.baseURL, "/__stubd/hits?session=t1").json
        #expect((session["forwarded"] as? [String: Int])?["GET /data/2.5/weather"] == 2, "\(session)")
        #expect((session["paths"] as? [String: Int])?["GET /data/2.5/weather"] == 2, "\(session)")
        #expect((try await get(proxy.baseURL, "/__stubd/hits").json["forwarded"] as? [String: Int]) == [:],
                "the default session saw none of t1's requests")

        // `stubd hits` shows them.
        let table = try run(stubdBinary.path, ["hits", "--url", proxy.baseURL.absoluteString, "--session", "t1"])
        #expect(table.status == 0 && table.output.contains("PROXIED") && table.output.contains("GET /data/2.5/weather"),
                "\(table.output)\(table.error)")

        // One line per forward, which does not call the request unmatched.
        let lines = proxy.log.split(separator: "\n").filter { $0.contains("/data/2.5/weather") }
        #expect(lines.count == 2, "\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { $0.contains("proxied to") && !$0.contains("unmatched") }, "\(lines.joined(separator: "\n"))")
    }

    @Test func aRecordedAnswerIsServedFromThenOnNotForwardedAgain() async throws {
        let (api, _) = try Self.realAPI()
        let folder = try TempStubs([:]).url
        // --no-watch (ServeProcess's default): before, nothing would ever answer it locally.
        let proxy = try ServeProcess(["--stubs", folder.path, "--proxy", api.baseURL.absoluteString, "--record-missing", "--allow-ci"])
        var bodies: [Data] = []
        for _ in 0..<3 {
            let answer = try await get(proxy.baseURL, "/data/2.5/weather.json")
            #expect(answer.status == 200, "\(answer.text)\n\(proxy.log)")
            bodies.append(answer.body)
        }
        #expect(try await Self.calls(api, "/data/2.5/weather.json") == 1, "\(proxy.log)")
        #expect(Set(bodies).count == 1)
        let hits = try await get(proxy.baseURL, "/__stubd/hits").json
        #expect((hits["forwarded"] as? [String: Int])?["GET /data/2.5/weather.json"] == 1, "\(hits)")
        #expect((hits["paths"] as? [String: Int])?["GET /data/2.5/weather.json"] == 3, "\(hits)")
    }
}
