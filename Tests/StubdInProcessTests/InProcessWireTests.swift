import Foundation
import StubdClient
import StubdCoreTestSupport
import StubdInProcess
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a socket would carry, carried without one: a body cut short, a throttled body, a spec's
/// verdicts, `URLSession.shared` through a class registered for the process.
@Suite(.serialized) struct InProcessWireTests {
    static let files: [String: String] = [
        "stubd.yml": """
        routes:
          - name: cut
            request: { path: /cut }
            response: { fault: truncated_body, json: { text: "0123456789012345678901234567890123456789" } }
          - name: slow-body
            request: { path: /slow-body }
            response: { throttle: 2000, body: "\(String(repeating: "x", count: 600))" }
          - name: weather
            request: { path: /weather }
            response: { json: { temp: 21 } }
        """,
        "openapi.yaml": """
        openapi: 3.0.3
        info: { title: w, version: "1" }
        paths:
          /weather:
            get:
              parameters:
                - { name: units, in: query, schema: { type: string, enum: [metric, imperial] } }
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema: { type: object, required: [temp], properties: { temp: { type: number } } }
        """,
    ]

    /// Headers that promise the whole body, half of it, then the error URLSession gives for a cut body.
    @Test func aTruncatedBodyEndsInTheErrorOfACutTransfer() async throws {
        let stubs = try InProcessStubs.load(stubs: TempStubs(Self.files).url)
        defer { stubs.close() }
        let code = await failure { _ = try await stubs.urlSession.get("http://x.example/cut") }
        #if canImport(Darwin)
        #expect(code == .networkConnectionLost)
        #else
        #expect(code == .unknown)
        #endif
    }

    /// A throttled body takes its time (600 bytes at 2,000 B/s: 0.3 s) and arrives whole.
    @Test func aThrottledBodyTakesItsTimeAndArrivesWhole() async throws {
        let stubs = try InProcessStubs.load(stubs: TempStubs(Self.files).url)
        defer { stubs.close() }
        let start = ContinuousClock.now
        let r = try await stubs.urlSession.get("http://x.example/slow-body")
        #expect(r.text.count == 600)
        #expect(ContinuousClock.now - start >= .milliseconds(280))
        #expect(r.response.value(forHTTPHeaderField: "Content-Length") == "600")
    }

    /// With a spec, a request that breaks it is served and reported (header and contractProblems),
    /// as `serve --spec` does; strict mode refuses it with 422.
    @Test func aSpecJudgesRequestsAsServeDoes() async throws {
        let folder = try TempStubs(Self.files)
        let spec = folder.url.appendingPathComponent("openapi.yaml")
        let reporting = try InProcessStubs.load(stubs: folder.url, specs: [spec])
        defer { reporting.close() }
        let served = try await reporting.urlSession.get("http://x.example/weather?units=kelvin")
        #expect(served.status == 200)
        #expect(served.response.value(forHTTPHeaderField: "X-Stubd-Contract")?.contains("units") == true)
        #expect(try await reporting.contractProblems().count == 1)

        let strict = try InProcessStubs.load(stubs: folder.url, specs: [spec], strictRequests: true)
        defer { strict.close() }
        #expect(try await strict.urlSession.get("http://x.example/weather?units=kelvin").status == 422)
        #expect(try await strict.urlSession.get("http://x.example/weather?units=metric").status == 200)
    }

    /// `answerEveryURLSession()`: `URLSession.shared` answered, on Apple platforms (not run here). On Linux
    /// it is not, measured:
    /// swift-corelibs-foundation gives a configuration's own classes (its HTTP protocol) precedence
    /// over registered ones, so `shared` goes to the network (here: `.invalid` never resolves).
    @Test func aRegisteredClassAnswersTheSharedSessionOnlyOnApplePlatforms() async throws {
        let stubs = try InProcessStubs.load(stubs: TempStubs(Self.files).url)
        stubs.answerEveryURLSession()
        defer { stubs.close() }
        let shared = await failure { _ = try await URLSession.shared.get("http://weather.invalid/weather", timeout: 5) }
        #if canImport(Darwin)
        #expect(shared == nil)
        #else
        #expect(shared == .cannotFindHost, "corelibs now lets a registered class answer URLSession.shared: update docs/ios-unit-tests.md")
        #endif
    }
}
