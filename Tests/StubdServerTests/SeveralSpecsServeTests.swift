import Foundation
import StubdTestSupport
import Testing

/// `stubd serve --spec A --spec B`: a folder holding several specs' stubs (vendors ship one spec per
/// service) served with every spec in force, each request judged by the spec that declares its
/// operation, so a refusal names that spec's file and not another's or a merged one. Here what
/// `stubd serve` itself says and refuses; what the engine answers (overlapping paths, the contract
/// report, health), with no socket: SeveralSpecsAnswerTests in StubdCoreTests. The folders:
/// `SeveralSpecsStubs` (StubdCoreTestSupport).
@Suite struct SeveralSpecsServeTests {
    /// `stubd serve` of the stubs with both specs in force, and `more`.
    static func serveBoth(_ more: [String] = []) throws -> ServeProcess {
        let (specs, stubs) = try SeveralSpecsStubs.folders()
        return try ServeProcess(["--stubs", stubs.path, "--spec", specs.appendingPathComponent("weather.yaml").path,
                                 "--spec", specs.appendingPathComponent("orders.yaml").path] + more)
    }

    /// Before: `--spec` took one file (the last given won), so a request to the other spec's paths
    /// was judged by no spec at all and an invalid one was served 200.
    @Test func eachRequestIsJudgedByTheSpecThatDeclaresItsOperationAndNamesIt() async throws {
        let serve = try Self.serveBoth(["--validate", "requests=strict"])
        let badWeather = try await get(serve.baseURL, "/weather/London?units=kelvin")
        #expect(badWeather.status == 422, "\(badWeather.text)")
        #expect(badWeather.json["title"] as? String == "The request does not keep to weather.yaml", "\(badWeather.text)")
        let badOrder = try await get(serve.baseURL, "/orders/abc")
        #expect(badOrder.status == 422, "\(badOrder.text)")
        #expect(badOrder.json["title"] as? String == "The request does not keep to orders.yaml", "\(badOrder.text)")
        #expect(try await get(serve.baseURL, "/weather/London?units=metric").json["temp"] as? Int == 3)
        #expect(try await get(serve.baseURL, "/orders/7").json["id"] as? Int == 1)
        // A path no spec declares is served as it is without a spec.
        #expect(try await get(serve.baseURL, "/free").json["free"] as? Bool == true)
        // The start-up line names every spec in force and the request mode.
        #expect(serve.log.contains("stubd --spec weather.yaml (OpenAPI 3.1.0, 3 operations) --spec orders.yaml (OpenAPI 3.0.3, 2 operations), requests=strict"),
                "\(serve.log)")
    }

    /// Two specs declaring one operation (Twilio's chat_v1 and messaging_v1 both have `GET /v1/Services`,
    /// on different hosts): which one judged a request would decide whether it is refused, so neither
    /// `serve` nor `check` starts, and the message names both places. Before: serve started with the last one.
    @Test func twoSpecsDeclaringOneOperationAreRefusedNamingBoth() throws {
        let clash = SeveralSpecsStubs.orders.replacingOccurrences(of: "/orders/{id}", with: "/weather/{town}")
            .replacingOccurrences(of: "name: id, in: path", with: "name: town, in: path")
        let (specs, stubs) = try SeveralSpecsStubs.folders(["weather.yaml": SeveralSpecsStubs.weather, "orders.yaml": clash])
        let both = ["--spec", specs.appendingPathComponent("weather.yaml").path, "--spec", specs.appendingPathComponent("orders.yaml").path]
        let serve = try run(stubdBinary.path, ["serve", "--port", "0", "--no-watch", "--stubs", stubs.path] + both, killedAfter: 20)
        #expect(serve.status == 1, "\(serve.output)")
        #expect(serve.error.contains("orders.yaml: GET /weather/{town} (orders.yaml#/paths/~1weather~1{town}/get) is also declared by weather.yaml "
                                     + "(GET /weather/{city} at weather.yaml#/paths/~1weather~1{city}/get)"), "\(serve.error)")
        #expect(serve.error.contains("separate stubd servers"), "\(serve.error)")
        let check = try run(stubdBinary.path, ["check", "--stubs", stubs.path] + both)
        #expect(check.status == 1, "\(check.output)")
        #expect(check.error.contains("is also declared by weather.yaml"), "\(check.error)")
    }
}
