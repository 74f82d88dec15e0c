import Foundation
import StubdTestSupport
import Testing

/// Issue 45 item 3: `serve --spec` serves a request that breaks the spec (report mode, the default)
/// and a newcomer expected 422s; start-up did not say which mode was in force nor how to get them.
/// And `X-Stubd-Contract` said "2 problems" listing one, without the log line's "(and 1 more)".
@Suite struct ReportModeSayingTests {
    static let spec = """
        openapi: 3.0.3
        info: { title: Weather, version: "1" }
        paths:
          /weather:
            get:
              parameters:
                - { name: units, in: query, schema: { type: string, enum: [metric, imperial] } }
                - { name: lang, in: query, schema: { type: string, enum: [en, fr] } }
              responses:
                "200": { description: ok, content: { application/json: { schema: { type: object } } } }
        """

    /// What the process has printed once `text` shows in it (it prints the line after the first).
    static func log(_ serve: ServeProcess, containing text: String) async throws -> String {
        for _ in 0..<50 where !serve.log.contains(text) { try await Task.sleep(for: .milliseconds(100)) }
        return serve.log
    }

    @Test func startUpSaysTheRequestModeAndHowToGet422s() async throws {
        let folder = try TempStubs(["openapi.yaml": Self.spec, "Stubs/weather.json": #"{"temp": 3}"#])
        let specPath = folder.url.appendingPathComponent("openapi.yaml").path
        let stubsPath = folder.url.appendingPathComponent("Stubs").path

        let report = try ServeProcess(["--stubs", stubsPath, "--spec", specPath])
        let said = try await Self.log(report, containing: "requests=report")
        #expect(said.contains("stubd --spec openapi.yaml (OpenAPI 3.0.3, 1 operation), requests=report: a request that does not keep to the spec gets the stub's answer"), "\(said)")
        #expect(said.contains("--validate requests=strict answers 422 instead"), "\(said)")
        // "breaks the spec" is what the log says of a request's problems (scripts look for it): not here.
        #expect(!said.contains("breaks the spec"), "\(said)")

        // Two problems: the header counts both and says the second is there.
        let both = try await get(report.baseURL, "/weather?units=kelvin&lang=de")
        #expect(both.status == 200)
        let header = try #require(both.header("X-Stubd-Contract"), "\(both.headers)")
        #expect(header.hasPrefix("2 problems: query.units"), "\(header)")
        #expect(header.hasSuffix(" (and 1 more)"), "\(header)")
        let one = try await get(report.baseURL, "/weather?units=kelvin")
        #expect(one.header("X-Stubd-Contract")?.hasPrefix("1 problem: query.units") == true)
        #expect(one.header("X-Stubd-Contract")?.contains("more)") == false)

        let strict = try ServeProcess(["--stubs", stubsPath, "--spec", specPath, "--validate", "requests=strict"])
        let strictSaid = try await Self.log(strict, containing: "requests=strict")
        #expect(strictSaid.contains("requests=strict: a request that does not keep to the spec gets 422"), "\(strictSaid)")
    }
}
