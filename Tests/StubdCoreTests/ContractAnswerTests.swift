import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// `serve --spec` as the engine answers it: strict mode's 422, `requests=off`, a rendered template
/// held to the spec, a reload that breaks it, and what health and `/__stubd/contract` say of the
/// spec. Moved from ContractCheckTests (StubdServerTests), which keeps `stubd check` and `stubd serve`
/// run as a user runs them.
@Suite struct ContractAnswerTests {
    static let goodAnswer = WeatherContract.goodAnswer

    /// What a test of `serve --spec` answers under: `WeatherContract`'s spec.
    static func servingSpec30() throws -> ContractSet {
        let spec = try TempStubs(WeatherContract.files)
        return ContractSet(try APIContract.load(spec: spec.url.appendingPathComponent("openapi.yaml")))
    }

    /// A served folder edited into breaking the contract keeps serving what it served, as a broken stub would.
    @Test func aReloadThatBreaksTheContractKeepsThePreviousAnswers() throws {
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer])
        let server = try EngineHarness(stubs, contracts: try Self.servingSpec30())
        try stubs.write("data/2.5/weather.json", #"{"name": "London", "main": {"temp": 1}, "wind": 3}"#)
        #expect(throws: CatalogLoadError.self) { try server.reload() }
        do { try server.reload() } catch {
            #expect(error.description.contains("data/2.5/weather.json:1:49: GET /data/2.5/weather 200: /wind: the property 'wind' is not allowed here"), "\(error)")
        }
        let answer = server.get("/data/2.5/weather")
        #expect(answer.status == 200)
        #expect(answer.text.contains("\"Paris\""))
    }

    @Test func healthSaysWhichSpecIsLoaded() throws {
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer])
        let held = try EngineHarness(stubs, contracts: try Self.servingSpec30())
        let report = held.get("/__stubd/health").json
        let described = report["spec"] as? [String: Any]
        #expect(described?["file"] as? String == "openapi.yaml", "\(report)")
        #expect(described?["openapi"] as? String == "3.0.3", "\(report)")
        #expect(described?["operations"] as? Int == 2, "\(report)")

        let plain = try EngineHarness(stubs)
        #expect(plain.get("/__stubd/health").json["spec"] == nil)
    }

    /// `--validate requests=strict`: a request the spec refuses is answered 422, each error named; one it takes gets the stub.
    @Test func aStrictServerAnswers422NamingEachWayTheRequestBreaksTheSpec() throws {
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer])
        let server = try EngineHarness(stubs, contracts: try Self.servingSpec30(), validation: .strict)

        let bad = server.get("/data/2.5/weather?units=celsius&cnt=two")
        #expect(bad.status == 422)
        #expect(bad.header("Content-Type") == "application/problem+json")
        let errors = (bad.json["validation"] as? [[String: Any]]) ?? []
        let shown = errors.map { "\($0["location"] ?? "") \($0["code"] ?? ""): \($0["message"] ?? "")" }
        #expect(shown.count == 3, "\(shown)")
        #expect(shown.contains("query.q required: the query parameter 'q' is required"), "\(shown)")
        #expect(shown.contains { $0.hasPrefix("query.units enum: expected one of \"standard\", \"metric\", or \"imperial\"") }, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("query.cnt type: expected an integer") }, "\(shown)")

        let good = server.get("/data/2.5/weather?q=London&units=metric&cnt=3")
        #expect(good.status == 200)
        #expect(good.text.contains("Paris"))
    }

    /// `GET /__stubd/contract`: the spec in force and its notices on the catalog; 404 saying how to load one without.
    @Test func theAdminAPISaysWhichSpecAndWhatItNoticed() throws {
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer, "extra.json": "{}"])
        try withEngine(stubs.url, contracts: try Self.servingSpec30()) { server in
            // `GET /__stubd/contract`, read as `StubdClient.contract()` reads it.
            let report = try AdminCoding.decode(ContractReport.self, from: server.get("/__stubd/contract").body)
            #expect(report.file == "openapi.yaml" && report.openapi == "3.0.3" && report.requests == "report")
            #expect(report.operations == ["GET /data/2.5/forecast", "GET /data/2.5/weather"], "\(report.operations)")
            #expect(report.notices.contains { $0.hasPrefix("GET /extra") && $0.contains("matches no operation") }, "\(report.notices)")
            #expect(report.notices.contains { $0.hasPrefix("GET /data/2.5/forecast") && $0.contains("has no stub") }, "\(report.notices)")
        }
        try withEngine(stubs.url) { server in
            let r = server.get("/__stubd/contract")
            #expect(r.status == 404 && r.text.contains("stubd serve --spec FILE"), "\(r.text)")
        }
    }

    /// `requests=off`: nothing is held to the spec on the request side.
    @Test func validateOffChecksNoRequest() throws {
        let stubs = try TempStubs(["data/2.5/weather.json": Self.goodAnswer])
        try withEngine(stubs.url, contracts: try Self.servingSpec30(), validation: .off) { server in
            let r = server.get("/data/2.5/weather?units=celsius")
            #expect(r.status == 200 && r.header("X-Stubd-Contract") == nil)
        }
    }

    /// A template's answer can only be held to the spec once rendered: a rendered body that breaks
    /// the schema is reported as the request's problems are.
    @Test func aRenderedTemplateThatBreaksTheSpecIsReported() throws {
        let stubs = try TempStubs(["data/2.5/weather.tmpl.json": #"{"name": "{{request.query.q}}", "main": {"temp": "{{request.query.t}}"}}"#])
        try withEngine(stubs.url, contracts: try Self.servingSpec30()) { server in
            let r = server.get("/data/2.5/weather?q=Oslo&t=cold")
            #expect(r.status == 200)
            let header = r.header("X-Stubd-Contract") ?? ""
            #expect(header.hasPrefix("1 problem: answer: /main/temp"), "\(header)")
            let journal = try server.requests()
            #expect(journal.requests.first?.contract?.first?.hasPrefix("answer: /main/temp") == true, "\(journal.requests)")
        }
    }
}
