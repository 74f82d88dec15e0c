import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import Testing

/// A folder holding several specs' stubs served with every spec in force (`serve --spec A --spec B`),
/// through the engine with no socket: each request judged by the spec that declares its operation,
/// the contract report and health listing each spec apart. Moved from SeveralSpecsServeTests
/// (StubdServerTests), which keeps the start-up line `stubd serve` prints and the refusal to start.
@Suite struct SeveralSpecsAnswerTests {
    /// The stubs with both specs in force, requests held to them as `validation` says.
    static func engineBoth(validation: EngineHarness.Validation = .report) throws -> EngineHarness {
        let (specs, stubs) = try SeveralSpecsStubs.folders()
        let contracts = try ContractSet(["weather.yaml", "orders.yaml"].map { try APIContract.load(spec: specs.appendingPathComponent($0)) })
        return try EngineHarness(folder: stubs, contracts: contracts, validation: validation)
    }

    /// `/things/mine` (orders.yaml) beside `/things/{id}` (weather.yaml): the more specific path's spec
    /// judges it, as within one spec. Before: only the last spec was read.
    @Test func aPathOnlyOverlappingAnotherSpecsIsTheMoreSpecificOnes() throws {
        let serve = try Self.engineBoth(validation: .strict)
        let mine = serve.get("/things/mine?owner=me")
        #expect(mine.status == 200, "weather.yaml's /things/{id} would want an integer: \(mine.text)")
        let noOwner = serve.get("/things/mine")
        #expect(noOwner.status == 422, "\(noOwner.text)")
        #expect(noOwner.json["title"] as? String == "The request does not keep to orders.yaml", "\(noOwner.text)")
        let notANumber = serve.get("/things/abc")
        #expect(notANumber.status == 422, "\(notANumber.text)")
        #expect(notANumber.json["title"] as? String == "The request does not keep to weather.yaml", "\(notANumber.text)")
    }

    /// Before: the report named one spec (the last given).
    @Test func theContractReportListsEverySpecWithItsOwnFindings() throws {
        let serve = try Self.engineBoth()
        let report = serve.get("/__stubd/contract").json
        let listed = try #require(report["specs"] as? [[String: Any]], "\(report)")
        #expect(listed.map { $0["file"] as? String } == ["weather.yaml", "orders.yaml"])
        #expect(listed.map { $0["openapi"] as? String } == ["3.1.0", "3.0.3"])
        #expect(listed[1]["operations"] as? [String] == ["GET /things/mine", "GET /orders/{id}"], "\(listed[1])")
        #expect(listed[0]["notices"] as? [String] == ["GET /forecast in weather.yaml has no stub"], "\(listed[0])")
        #expect(listed[1]["notices"] as? [String] == [], "\(listed[1])")
        #expect(report["file"] as? String == "weather.yaml and orders.yaml", "\(report)")
        #expect((report["notices"] as? [String])?.contains { $0.hasPrefix("GET /free (") && $0.hasSuffix("matches no operation in weather.yaml or orders.yaml") } == true,
                "\(report)")
    }

    /// Before: health named the specs as one entry (`weather.yaml and orders.yaml`, operations added up).
    @Test func healthListsEachSpecApart() throws {
        let serve = try Self.engineBoth()
        let report = serve.get("/__stubd/health").json
        let listed = try #require(report["specs"] as? [[String: Any]], "\(report)")
        #expect(listed.map { $0["file"] as? String } == ["weather.yaml", "orders.yaml"], "\(report)")
        #expect(listed.map { $0["openapi"] as? String } == ["3.1.0", "3.0.3"], "\(report)")
        #expect(listed.map { $0["operations"] as? Int } == [3, 2], "\(report)")
        #expect((report["spec"] as? [String: Any])?["file"] as? String == "weather.yaml and orders.yaml", "\(report)")
        let plain = try EngineHarness(try TempStubs(SeveralSpecsStubs.stubs))
        #expect(plain.get("/__stubd/health").json["specs"] == nil)
    }
}
