import Foundation
import Stubd
import StubdClient
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing

/// `stubd check --spec` and `stubd serve --spec`: stubs held to an OpenAPI contract, run as a user would.
/// `check --spec` alone, which starts no server: SpecCheckCommandTests.
@Suite struct ContractCheckTests {
    /// A 3.0 spec whose answer schema is in a second file and refers to itself (WeatherContract).
    static let spec30 = WeatherContract.files

    /// Server options holding stubs (and, by `validation`, requests) to `spec30`, written to a folder of its own.
    static func servingSpec30(_ validation: RequestValidationMode = .report) throws -> StubServer.Options {
        let spec = try TempStubs(Self.spec30)
        var options = StubServer.Options()
        options.contract = try APIContract.load(spec: spec.url.appendingPathComponent("openapi.yaml"))
        options.requestValidation = validation
        return options
    }

    static let goodAnswer = WeatherContract.goodAnswer

    @Test func aSpecThatIsNotOpenAPIIsNamedAndNothingIsServed() throws {
        // Swagger 2.0 and a missing `info` are read now (SwaggerTwoTests, LenientSpecTests).
        let spec = try TempStubs(["asyncapi.yaml": "asyncapi: 2.6.0\ninfo: { title: x, version: \"1\" }\n",
                                  "noin.yaml": "openapi: 3.1.0\npaths:\n  /a:\n    get:\n      parameters: [{name: q}]\n      responses: {}\n"])
        let stubs = try TempStubs(["a.json": "{}"])
        let old = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.url.appendingPathComponent("asyncapi.yaml").path])
        #expect(old.status == 1)
        #expect(old.error.contains("asyncapi.yaml: no 'openapi' field saying the version"), "\(old.error)")
        let bad = try run(stubdBinary.path, ["serve", "--stubs", stubs.url.path, "--port", "0", "--spec", spec.url.appendingPathComponent("noin.yaml").path])
        #expect(bad.status == 1)
        #expect(bad.error.contains("noin.yaml:5:20: #/paths/~1a/get/parameters/0: not a valid OpenAPI 3.1.0 document: Expected to find `in` key"), "\(bad.error)")
    }

    @Test func serveRefusesAFolderThatBreaksTheContract() throws {
        let spec = try TempStubs(Self.spec30)
        let stubs = try TempStubs(["data/2.5/weather.json": #"{"name": "London", "main": {"temp": "warm"}}"#])
        let r = try run(stubdBinary.path, ["serve", "--stubs", stubs.url.path, "--port", "0", "--no-watch",
                                           "--spec", spec.url.appendingPathComponent("openapi.yaml").path])
        #expect(r.status == 1)
        #expect(r.error.contains("data/2.5/weather.json:1:37: GET /data/2.5/weather 200: /main/temp: expected a number"), "\(r.error)")
    }

    @Test func validateWithoutASpecIsRefused() throws {
        let r = try run(stubdBinary.path, ["serve", "--stubs", exampleStubs.path, "--port", "0", "--validate", "requests=strict"])
        #expect(r.status != 0)
        #expect(r.error.contains("--validate requests=strict says what to do with requests that break a spec or a GraphQL schema: add --spec FILE or --graphql-schema FILE"), "\(r.error)")
        let typo = try run(stubdBinary.path, ["serve", "--stubs", exampleStubs.path, "--port", "0", "--validate", "requests=warn"])
        #expect(typo.status != 0)
        #expect(typo.error.contains("The value 'requests=warn' is invalid for '--validate <requests=mode>'. Please provide one of 'requests=report', 'requests=strict' or 'requests=off'."), "\(typo.error)")
    }

    /// The default with a spec, `report`: the stub is served, and the problem is in the journal, the
    /// log line and an `X-Stubd-Contract` header; the Swift client turns it into `StubdError`.
    @Test func byDefaultABrokenRequestGetsTheStubAndTheProblemIsReportedEverywhere() async throws {
        let spec = try TempStubs(Self.spec30)
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer])
        let serve = try ServeProcess(["--stubs", stubs.url.path, "--spec", spec.url.appendingPathComponent("openapi.yaml").path])
        let bad = try await get(serve.baseURL, "/data/2.5/weather?q=London&units=celsius")
        #expect(bad.status == 200)
        #expect(bad.text.contains("London"))
        let header = bad.header("X-Stubd-Contract") ?? ""
        #expect(header.hasPrefix("1 problem: query.units: ") && header.contains("celsius"), "\(header)")

        let good = try await get(serve.baseURL, "/data/2.5/weather?q=London&units=metric")
        #expect(good.status == 200 && good.header("X-Stubd-Contract") == nil)

        let client = StubdClient(baseURL: serve.baseURL)
        let journal = try await client.requests()
        let reported = journal.requests.compactMap(\.contract)
        #expect(reported.count == 1, "\(journal.requests)")
        #expect(reported.first?.first?.hasPrefix("query.units: ") == true, "\(reported)")
        do {
            try await client.requireRequestsKeepToContract()
            Issue.record("a request broke the spec, and nothing was thrown")
        } catch let error as StubdError {
            #expect(error.description.contains("GET /data/2.5/weather?q=London&units=celsius") && error.description.contains("query.units"), "\(error)")
        }
        // The log line says it too (read while the server runs).
        let deadline = Date().addingTimeInterval(10)
        while !serve.log.contains("breaks the spec: query.units"), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(serve.log.contains("breaks the spec: query.units"), "\(serve.log)")
    }
}
