import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// Issue 39 item 10: one media type per answer was served whatever `Accept` said. A stub may give
/// a body per media type (`content:`), a spec's examples in other types are offered too, and the
/// request's `Accept` picks among them (q-values, wildcards, the more specific range).
@Suite struct ContentNegotiationTests {
    static let spec = """
        openapi: 3.1.0
        info: { title: Reports, version: "1" }
        paths:
          /report:
            get:
              responses:
                "200":
                  description: a report
                  content:
                    application/json: { schema: { type: object, required: [temp] } }
                    text/csv: { schema: { type: string } }
                    application/xml:
                      schema: { type: string }
                      example: "<report><temp>3</temp></report>"
        """

    static let manifest = """
        routes:
          - request: { path: /report }
            response:
              content:
                application/json: { json: { temp: 3 } }
                text/csv: { body: "temp\\n3\\n" }
        """

    static func type(_ r: EngineAnswer) -> String { String((r.header("Content-Type") ?? "").prefix { $0 != ";" }) }

    @Test func theBestMatchOfAcceptIsServed() throws {
        try withStrictEngine(spec: Self.spec, stubs: ["stubd.yml": Self.manifest], validation: .report) { server in
            func fetch(_ accept: String?) -> EngineAnswer {
                server.get("/report", headers: accept.map { ["Accept": $0] } ?? [:])
            }
            let plain = fetch(nil)
            #expect(Self.type(plain) == "application/json" && plain.json["temp"] as? Int == 3, "\(plain.headers)")
            let csv = fetch("text/csv")
            #expect(Self.type(csv) == "text/csv" && csv.text == "temp\n3\n", "\(csv.headers) \(csv.text)")
            // The spec's XML example, as written.
            let xml = fetch("application/xml")
            #expect(Self.type(xml) == "application/xml" && xml.text == "<report><temp>3</temp></report>", "\(xml.headers) \(xml.text)")
            let t1 = fetch("text/*;q=0.5, application/json;q=0.4")
            #expect(Self.type(t1) == "text/csv")
            let t2 = fetch("*/*;q=0.1, application/xml")
            #expect(Self.type(t2) == "application/xml")
            // Each type takes the quality of the most specific range covering it: `*/*;q=0.3` is not JSON's nor XML's.
            let t3 = fetch("application/*;q=0.2, application/xml;q=0.1, */*;q=0.3, text/*;q=0")
            #expect(Self.type(t3) == "application/json")
            let t4 = fetch("application/*;q=0.2, application/xml;q=0.1, */*;q=0.3")
            #expect(Self.type(t4) == "text/csv")
            let t5 = fetch("application/json;q=0, */*")
            #expect(Self.type(t5) == "text/csv")
            // Nothing fits: the default, said.
            let png = fetch("image/png")
            #expect(png.status == 200 && Self.type(png) == "application/json")
            #expect(png.header("X-Stubd-Accept")?.contains("answers application/json, text/csv, application/xml") == true, "\(png.headers)")
        }
    }

    @Test func strictModeAnswers406NamingWhatThereIs() throws {
        try withStrictEngine(spec: Self.spec, stubs: ["stubd.yml": Self.manifest]) { server in
            let png = server.get("/report", headers: ["Accept": "image/png"])
            #expect(png.status == 406, "\(png.status) \(png.text)")
            #expect((png.json["detail"] as? String)?.contains("answers application/json, text/csv, application/xml") == true, "\(png.text)")
            #expect(server.get("/report", headers: ["Accept": "text/csv"]).status == 200)
        }
    }

    @Test func aStubsOwnBodiesAreNegotiatedWithoutASpec() throws {
        try withEngine(try TempStubs(["stubd.yml": Self.manifest]).url) { server in
            let t6 = server.get("/report", headers: ["Accept": "text/csv"])
            #expect(Self.type(t6) == "text/csv")
            let t7 = server.get("/report", headers: ["Accept": "application/json"])
            #expect(Self.type(t7) == "application/json")
            let t8 = server.get("/report")
            #expect(Self.type(t8) == "application/json")
        }
    }
}
