import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// Issue 38, item 5, over real sockets: a spec's backtracking-prone `pattern` no longer pins the
/// workers. With ICU, two requests whose query parameter was checked against `(.*a){20}` took
/// 80 s each, and a plain request sent meanwhile waited as long.
@Suite struct PatternServerTests {
    /// Benchmarks/hardening.py's `patterns` part serves the same file.
    static let spec = try! String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/OpenAPI/patterns-3.0.yaml"), encoding: .utf8)

    @Test func aPlainRequestIsAnsweredPromptlyWhileTwoPathologicalOnesAreChecked() async throws {
        try await withStrictServer(spec: Self.spec, stubs: ["search.json": "{}", "hello.json": "{}"]) { server in
            let matching = String(repeating: "a", count: 60) + "x"
            let missing = String(repeating: "a", count: 40) + "b"
            async let first = get(server.baseURL, "/search?q=\(matching)")
            async let second = get(server.baseURL, "/search?q=\(matching)&strict=\(missing)")
            // Give both a head start so they hold the two workers when the plain request comes.
            try await Task.sleep(for: .milliseconds(50))
            let clock = ContinuousClock()
            var hello: HTTPResult?
            let took = try await clock.measure { hello = try await get(server.baseURL, "/hello") }
            #expect(hello?.status == 200)
            #expect(took < .seconds(2), "a plain request waited \(took)")
            let (a, b) = try await (first, second)
            #expect(a.status == 200, "\(a.text)")
            #expect(b.status == 422 && b.text.contains("does not match the pattern ^(a+)+$"), "\(b.text)")
        }
    }
}
