import Foundation
import StubdTestSupport
import Testing

/// `stubd serve --spec A --spec B`: a folder holding several specs' stubs (vendors ship one spec per
/// service) served with every spec in force, each request judged by the spec that declares its
/// operation, so a refusal names that spec's file and not another's or a merged one.
@Suite struct SeveralSpecsServeTests {
    static let weather = """
        openapi: 3.1.0
        info: {title: Weather, version: '1'}
        paths:
          /weather/{city}:
            get:
              parameters:
                - {name: city, in: path, required: true, schema: {type: string}}
                - {name: units, in: query, schema: {type: string, enum: [metric, imperial]}}
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
          /forecast:
            get:
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
          /things/{id}:
            get:
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
        """
    static let orders = """
        openapi: 3.0.3
        info: {title: Orders, version: '1'}
        paths:
          /orders/{id}:
            get:
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
          /things/mine:
            get:
              parameters:
                - {name: owner, in: query, required: true, schema: {type: string}}
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
        """
    static let stubs = [
        "stubd.yml": """
            routes:
              - request: { method: GET, path: "/weather/{city}" }
                response: { status: 200, json: { temp: 3 } }
              - request: { method: GET, path: "/orders/{id}" }
                response: { status: 200, json: { id: 1 } }
              - request: { method: GET, path: "/things/{id}" }
                response: { status: 200, json: { thing: 1 } }
              - request: { method: GET, path: /things/mine }
                response: { status: 200, json: { mine: true } }
              - request: { method: GET, path: /free }
                response: { status: 200, json: { free: true } }
            """,
    ]

    /// The two specs, written beside each other; the stubs in a folder of their own.
    static func folders(_ specs: [String: String] = ["weather.yaml": weather, "orders.yaml": orders]) throws -> (specs: URL, stubs: URL) {
        (try TempStubs(specs).url, try TempStubs(stubs).url)
    }

    /// `stubd serve` of the stubs with both specs in force, and `more`.
    static func serveBoth(_ more: [String] = []) throws -> ServeProcess {
        let (specs, stubs) = try folders()
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

    /// `/things/mine` (orders.yaml) beside `/things/{id}` (weather.yaml): the more specific path's spec
    /// judges it, as within one spec. Before: only the last spec was read.
    @Test func aPathOnlyOverlappingAnotherSpecsIsTheMoreSpecificOnes() async throws {
        let serve = try Self.serveBoth(["--validate", "requests=strict"])
        let mine = try await get(serve.baseURL, "/things/mine?owner=me")
        #expect(mine.status == 200, "weather.yaml's /things/{id} would want an integer: \(mine.text)")
        let noOwner = try await get(serve.baseURL, "/things/mine")
        #expect(noOwner.status == 422, "\(noOwner.text)")
        #expect(noOwner.json["title"] as? String == "The request does not keep to orders.yaml", "\(noOwner.text)")
        let notANumber = try await get(serve.baseURL, "/things/abc")
        #expect(notANumber.status == 422, "\(notANumber.text)")
        #expect(notANumber.json["title"] as? String == "The request does not keep to weather.yaml", "\(notANumber.text)")
    }

    /// Before: the report named one spec (the last given).
    @Test func theContractReportListsEverySpecWithItsOwnFindings() async throws {
        let serve = try Self.serveBoth()
        let report = try await get(serve.baseURL, "/__stubd/contract").json
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
    @Test func healthListsEachSpecApart() async throws {
        let serve = try Self.serveBoth()
        let report = try await get(serve.baseURL, "/__stubd/health").json
        let listed = try #require(report["specs"] as? [[String: Any]], "\(report)")
        #expect(listed.map { $0["file"] as? String } == ["weather.yaml", "orders.yaml"], "\(report)")
        #expect(listed.map { $0["openapi"] as? String } == ["3.1.0", "3.0.3"], "\(report)")
        #expect(listed.map { $0["operations"] as? Int } == [3, 2], "\(report)")
        #expect((report["spec"] as? [String: Any])?["file"] as? String == "weather.yaml and orders.yaml", "\(report)")
        let plain = try ServeProcess(serving: Self.stubs)
        #expect(try await get(plain.baseURL, "/__stubd/health").json["specs"] == nil)
    }

    /// Two specs declaring one operation (Twilio's chat_v1 and messaging_v1 both have `GET /v1/Services`,
    /// on different hosts): which one judged a request would decide whether it is refused, so neither
    /// `serve` nor `check` starts, and the message names both places. Before: serve started with the last one.
    @Test func twoSpecsDeclaringOneOperationAreRefusedNamingBoth() throws {
        let clash = Self.orders.replacingOccurrences(of: "/orders/{id}", with: "/weather/{town}")
            .replacingOccurrences(of: "name: id, in: path", with: "name: town, in: path")
        let (specs, stubs) = try Self.folders(["weather.yaml": Self.weather, "orders.yaml": clash])
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
