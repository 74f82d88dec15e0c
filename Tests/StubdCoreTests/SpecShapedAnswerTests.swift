import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// What a client generated from the spec gets from stubd itself under `serve --spec` (issue 44):
/// stubd's own answers in the media type the spec declares, and runtime stubs held to the spec.
@Suite struct SpecShapedAnswerTests {
    static let spec = """
        openapi: 3.0.3
        info: { title: Weather, version: "1" }
        paths:
          /weather/{city}:
            get:
              parameters:
                - { name: city, in: path, required: true, schema: { type: string } }
                - { name: units, in: query, schema: { type: string, enum: [metric, imperial] } }
              responses:
                "200":
                  description: the weather
                  content: { application/json: { schema: { $ref: "#/components/schemas/Weather" } } }
                "404":
                  description: no such city
                  content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } }
                "422":
                  description: a bad request
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Error" }
                      example: { code: 422, message: units must be metric or imperial }
          /forecast:
            get:
              responses:
                "200": { description: a forecast, content: { application/json: { schema: { type: object } } } }
                default: { description: an error, content: { text/plain: { schema: { type: string } } } }
          /alerts:
            get:
              responses:
                "200": { description: alerts, content: { application/json: { schema: { type: array } } } }
                4XX: { description: no body }
          /broken:
            get:
              responses:
                "200": { description: ok, content: { application/json: { schema: { type: object } } } }
                "404": { description: never, content: { application/json: { schema: { not: {} } } } }
        components:
          schemas:
            Weather:
              type: object
              required: [temp]
              properties: { temp: { type: number } }
            Error:
              type: object
              additionalProperties: false
              required: [code, message]
              properties:
                code: { type: integer }
                message: { type: string }
        """

    static func server(_ mode: EngineHarness.Validation) throws -> (EngineHarness, APIContract) {
        let contracts = try EngineHarness.contract(spec: spec)
        let harness = try EngineHarness(try TempStubs(["weather/London.json": #"{"temp": 3}"#]), contracts: contracts, validation: mode)
        return (harness, try #require(contracts.contracts.first))
    }

    /// Issue 44 item 3: the 404 when no stub matches and strict mode's 422 came as
    /// application/problem+json where the spec declares those statuses as application/json, so a
    /// generated client threw "Unexpected content type" instead of returning `.notFound`.
    @Test func stubdsOwnAnswersComeInTheTypeTheSpecDeclares() throws {
        let (server, contract) = try Self.server(.strict)
        let error = try #require(contract.operations.first { $0.signature == "GET /weather/{city}" }?.responses.first { $0.status == "404" }?.media.first?.schema)
        // No stub for Paris: the spec's 404 shape, sampled, with stubd's reason in `message`.
        let missing = server.get("/weather/Paris")
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "application/json")
        #expect(error.isValid(try JSONParser.parse(missing.body)), "\(missing.text)")
        #expect((missing.json["message"] as? String)?.contains("no stub answers GET /weather/Paris") == true, "\(missing.text)")
        #expect(missing.header("X-Stubd-Problem")?.hasPrefix("No stub matches: no stub answers GET /weather/Paris") == true)
        #expect(missing.header("X-Stubd-Contract") == nil)

        // Strict mode's refusal: the spec's own example for 422.
        let refused = server.get("/weather/London?units=kelvin")
        #expect(refused.status == 422)
        #expect(refused.header("Content-Type") == "application/json")
        #expect(try JSONParser.parse(refused.body) == JSONParser.parse(Data(#"{"code": 422, "message": "units must be metric or imperial"}"#.utf8)))
        #expect(refused.header("X-Stubd-Problem")?.contains("query.units") == true)

        // `default` as text/plain: the reason as text.
        let forecast = server.get("/forecast")
        #expect(forecast.status == 404)
        #expect(forecast.header("Content-Type") == "text/plain")
        #expect(forecast.text.hasPrefix("no stub answers GET /forecast"))

        // `4XX` with no content: no body.
        let alerts = server.get("/alerts")
        #expect(alerts.status == 404)
        #expect(alerts.body.isEmpty)
        #expect(alerts.header("X-Stubd-Problem") != nil)

        // A schema nothing keeps to: the problem in the declared type, and a header saying why.
        let broken = server.get("/broken")
        #expect(broken.status == 404)
        #expect(broken.header("Content-Type") == "application/json")
        #expect(broken.header("X-Stubd-Contract")?.contains("stubd's own 404 answer does not keep to openapi.yaml#/paths/~1broken/get/responses/404") == true,
                "\(broken.headers)")

        // A path the spec does not have: stubd's problem+json as ever.
        let elsewhere = server.get("/elsewhere")
        #expect(elsewhere.status == 404)
        #expect(elsewhere.header("Content-Type") == "application/problem+json")
    }

    static func addStub(_ server: EngineHarness, _ json: String) -> EngineAnswer {
        server.http("/__stubd/stubs", method: "POST", body: json)
    }

    /// Issue 44 item 4, report mode: a runtime stub that breaks the spec was taken and served with
    /// nothing said; it is taken, and the reply, each answer's `X-Stubd-Contract` and the journal say how.
    @Test func aRuntimeStubThatBreaksTheSpecIsReportedOnEachAnswer() throws {
        let (server, _) = try Self.server(.report)
        let added = Self.addStub(server, #"{"request": {"path": "/weather/Rome"}, "response": {"status": 503}}"#)
        #expect(added.status == 201)
        let notes = try #require(added.json["contract"] as? [String], "\(added.text)")
        #expect(notes.first?.contains("the spec declares no 503 response for GET /weather/{city}") == true, "\(notes)")
        let rome = server.get("/weather/Rome")
        #expect(rome.status == 503)
        #expect(rome.header("X-Stubd-Contract")?.hasPrefix("1 problem: answer: the spec declares no 503 response") == true, "\(rome.headers)")
        let journal = server.get("/__stubd/requests")
        let entry = (journal.json["requests"] as? [[String: Any]])?.first { ($0["path"] as? String) == "/weather/Rome" }
        #expect((entry?["contract"] as? [String])?.first?.contains("no 503 response") == true, "\(journal.text)")

        let warm = Self.addStub(server, #"{"request": {"path": "/weather/Oslo"}, "response": {"json": {"temp": "warm"}}}"#)
        #expect(warm.status == 201)
        #expect((warm.json["contract"] as? [String])?.first?.contains("/temp: expected a number") == true, "\(warm.text)")
        #expect(server.get("/weather/Oslo").header("X-Stubd-Contract")?.contains("/temp") == true)

        let fine = Self.addStub(server, #"{"request": {"path": "/weather/Bern"}, "response": {"json": {"temp": 4}}}"#)
        #expect(fine.status == 201)
        #expect(fine.json["contract"] == nil)
        #expect(server.get("/weather/Bern").header("X-Stubd-Contract") == nil)
    }

    /// Issue 44 item 4, strict mode: such a stub is refused with 422 naming the violation, as a file
    /// stub fails the load.
    @Test func strictModeRefusesARuntimeStubThatBreaksTheSpec() throws {
        let (server, _) = try Self.server(.strict)
        let refused = Self.addStub(server, #"{"request": {"path": "/weather/Rome"}, "response": {"status": 503}}"#)
        #expect(refused.status == 422, "\(refused.text)")
        #expect((refused.json["detail"] as? String)?.contains("GET /weather/{city} 503: the spec declares no 503 response") == true, "\(refused.text)")
        #expect(server.get("/weather/Rome").status == 404)
        let fine = Self.addStub(server, #"{"request": {"path": "/weather/Bern"}, "response": {"json": {"temp": 4}}}"#)
        #expect(fine.status == 201)
    }
}
