import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// Issue 39 item 14: a `Prefer` that no stub answers (an undeclared `code=`, an unknown
/// `example=`, `code=502` where the spec has only `5XX`) was served the default answer, silently.
@Suite struct PreferMissTests {
    /// As `OpenAPISpec.document` (StubdTestSupport, which this target does not link) writes it.
    static let spec = """
        openapi: 3.0.3
        info: {title: Weather, version: '1'}
        paths:
          /weather/{city}:
            get:
              parameters: [{ name: city, in: path, required: true, schema: { type: string } }]
              responses:
                "200": { description: ok, content: { application/json: { schema: { type: object } } } }
                "404": { description: no such city, content: { application/json: { schema: { type: object } } } }
                5XX: { description: trouble, content: { application/json: { schema: { type: object } } } }

        """

    /// What `stubd openapi import` writes for that spec: a plain route, and one per `Prefer`.
    static let manifest = """
        routes:
          - name: weather
            request: { path: "/weather/{city}" }
            response: { json: { temp: 1 } }
          - name: "weather code=404"
            request: { path: "/weather/{city}", headers: { Prefer: "code=404" } }
            response: { status: 404, json: { message: none } }
          - name: "weather code=500"
            request: { path: "/weather/{city}", headers: { Prefer: "code=500" } }
            response: { status: 500, json: { message: down } }
          - name: "weather example=rainy"
            request: { path: "/weather/{city}", headers: { Prefer: "example=rainy" } }
            response: { json: { temp: 2 } }
        """

    @Test func reportModeServesTheDefaultAndSaysThePreferMatchedNothing() throws {
        try withStrictEngine(spec: Self.spec, stubs: ["stubd.yml": Self.manifest], validation: .report) { server in
            let teapot = server.get("/weather/Oslo", headers: ["Prefer": "code=418"])
            #expect(teapot.status == 200)
            let said = try #require(teapot.header("X-Stubd-Prefer"), "\(teapot.headers)")
            #expect(said.hasPrefix("Prefer: code=418 matches no stub of GET /weather/Oslo"), "\(said)")
            #expect(said.contains("stubs here take Prefer: code=404 | code=500 | example=rainy"), "\(said)")

            let unknown = server.get("/weather/Oslo", headers: ["Prefer": "example=sunny"])
            #expect(unknown.header("X-Stubd-Prefer")?.contains("example=sunny matches no stub") == true)

            // The spec's 5XX documents a 502, but no stub answers one: said, naming the range's stub.
            let badGateway = server.get("/weather/Oslo", headers: ["Prefer": "code=502"])
            #expect(badGateway.status == 200)
            #expect(badGateway.header("X-Stubd-Prefer")?.contains("openapi.yaml's 5XX covers 502, but no stub answers 502") == true, "\(badGateway.headers)")
            #expect(badGateway.header("X-Stubd-Prefer")?.contains("Prefer: code=500") == true)

            // Met, or none of stubd's business: nothing said.
            #expect(server.get("/weather/Oslo", headers: ["Prefer": "code=404"]).header("X-Stubd-Prefer") == nil)
            #expect(server.get("/weather/Oslo", headers: ["Prefer": "example=rainy"]).header("X-Stubd-Prefer") == nil)
            #expect(server.get("/weather/Oslo", headers: ["Prefer": "return=minimal"]).header("X-Stubd-Prefer") == nil)

            let journal = server.get("/__stubd/requests")
            let notes = ((journal.json["requests"] as? [[String: Any]]) ?? []).flatMap { ($0["notes"] as? [String]) ?? [] }
            #expect(notes.contains { $0.hasPrefix("Prefer: code=418 matches no stub") }, "\(journal.text)")

            // A session's preference is held to the same rule.
            // `PUT /__stubd/prefer` in session a, as `StubdClient.prefer` sends it.
            #expect(server.http("/__s/a/__stubd/prefer", method: "PUT", body: #"{"prefer": "code=418"}"#).status == 200)
            #expect(server.get("/__s/a/weather/Oslo").header("X-Stubd-Prefer")?.contains("code=418") == true)
        }
    }

    @Test func strictModeAnswersAnErrorNamingWhatIsAvailable() throws {
        try withStrictEngine(spec: Self.spec, stubs: ["stubd.yml": Self.manifest]) { server in
            let teapot = server.get("/weather/Oslo", headers: ["Prefer": "code=418"])
            #expect(teapot.status == 404)
            let why = teapot.header("X-Stubd-Problem") ?? (teapot.json["detail"] as? String) ?? ""
            #expect(why.contains("code=418 matches no stub"), "\(teapot.headers) \(teapot.text)")
            #expect(why.contains("code=404 | code=500 | example=rainy"), "\(why)")
            #expect(server.get("/weather/Oslo", headers: ["Prefer": "code=500"]).status == 500)
        }
    }
}
