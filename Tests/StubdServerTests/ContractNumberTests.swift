import Foundation
import Stubd
import StubdCore
import StubdTestSupport
import Testing

/// Numbers as a spec and a request write them (issues 39 and 44): int64's whole range through the
/// real server, bounds reported as bounds, and only an integer's spelling taken as an integer.
@Suite struct ContractNumberTests {
    static let spec = """
        openapi: 3.1.0
        info: { title: Numbers, version: "1" }
        paths:
          /data/2.5/forecast/{id}:
            get:
              parameters:
                - { name: id, in: path, required: true, schema: { type: integer, format: int64 } }
                - { name: PageSize, in: query, schema: { $ref: "#/components/schemas/PageSize" } }
                - { name: X-Trace, in: header, schema: { type: integer, format: int64 } }
              responses:
                "200": { description: a forecast, content: { application/json: { schema: { type: object } } } }
        components:
          schemas:
            PageSize: { type: integer, minimum: 1, maximum: 1000 }
        """

    /// The problems a strict server names for `path` (empty when it serves the stub), as "location code".
    static func problems(_ server: StubServer, _ path: String, headers: [String: String] = [:]) async -> [String] {
        guard let r = try? await get(server.baseURL, path, headers: headers) else { return ["no answer"] }
        if r.status == 200 { return [] }
        #expect(r.status == 422, "\(path): \(r.status) \(r.text)")
        return ((r.json["validation"] as? [[String: Any]]) ?? []).map { "\($0["location"] ?? "") \($0["code"] ?? "")" }
    }

    static func strictServer(_ spec: String) throws -> (TempStubs, StubServer.Options) {
        let folder = try TempStubs(["openapi.yaml": spec])
        var options = StubServer.Options()
        options.contract = try APIContract.load(spec: folder.url.appendingPathComponent("openapi.yaml"))
        options.requestValidation = .strict
        return (try TempStubs(["data/2.5/forecast/{id}.json": #"{"list": []}"#]), options)
    }

    /// Issue 44 item 1: the generated Swift client sends `Int64`; its maximum went through a Double
    /// and came out as 2^63, refused as "expected an integer, got the string".
    @Test func everyInt64IsTakenInThePathAndAHeaderAndNothingPastIt() async throws {
        let (stubs, options) = try Self.strictServer(Self.spec)
        try await withServer(stubs.url, options: options) { server in
            for id in ["9223372036854775807", "9223372036854775295", "-9223372036854775808", "0", "42"] {
                #expect(await Self.problems(server, "/data/2.5/forecast/\(id)") == [], "\(id)")
            }
            #expect(await Self.problems(server, "/data/2.5/forecast/1", headers: ["X-Trace": "9223372036854775807"]) == [])
            for id in ["9223372036854775808", "-9223372036854775809", "18446744073709551615"] {
                #expect(await Self.problems(server, "/data/2.5/forecast/\(id)") == ["path.id format"], "\(id)")
            }
            #expect(await Self.problems(server, "/data/2.5/forecast/1", headers: ["X-Trace": "9223372036854775808"]) == ["header.X-Trace format"])
        }
    }

    /// Issue 44 item 2: Twilio's PageSize (1–1000); out of range is a bound, not a type; and an
    /// integer is written in digits (`1.0` and `1e3` are JSON Schema integers in a JSON body, not in
    /// a query string: see RequestValidation).
    @Test func aBoundIsReportedAsABoundAndOnlyDigitsSpellAnInteger() async throws {
        let (stubs, options) = try Self.strictServer(Self.spec)
        try await withServer(stubs.url, options: options) { server in
            for good in ["1", "50", "1000"] {
                #expect(await Self.problems(server, "/data/2.5/forecast/1?PageSize=\(good)") == [], "\(good)")
            }
            for low in ["0", "-1"] {
                #expect(await Self.problems(server, "/data/2.5/forecast/1?PageSize=\(low)") == ["query.PageSize minimum"], "\(low)")
            }
            for high in ["1001", "5000"] {
                #expect(await Self.problems(server, "/data/2.5/forecast/1?PageSize=\(high)") == ["query.PageSize maximum"], "\(high)")
            }
            for odd in ["0x10", "%2B5", "1e3", "1.0", "010", "5.", ".5", "inf", "1%20"] {
                #expect(await Self.problems(server, "/data/2.5/forecast/1?PageSize=\(odd)") == ["query.PageSize type"], "\(odd)")
            }
            for odd in ["0x10", "1e3", "1.0"] {
                #expect(await Self.problems(server, "/data/2.5/forecast/\(odd)") == ["path.id type"], "\(odd)")
            }
        }
    }

    /// Issue 39 item 6: int64's maximum as a bound (common in generated Java, Go and Kotlin specs), or
    /// a bound past any integer type, refused the whole spec ("Expected an Integer literal but found a
    /// floating point value").
    @Test func aBoundPastInt64LoadsAndHolds() async throws {
        let (stubs, options) = try Self.strictServer("""
            openapi: 3.0.3
            info: { title: Bounds, version: "1" }
            paths:
              /data/2.5/forecast/{id}:
                get:
                  parameters:
                    - { name: id, in: path, required: true, schema: { type: integer, minimum: 0, maximum: 9223372036854775807 } }
                    - { name: big, in: query, schema: { type: integer, minimum: -99999999999999999999, maximum: 1e30 } }
                  responses:
                    "200":
                      description: a forecast
                      content:
                        application/json:
                          schema: { type: object, properties: { n: { type: integer, format: int64, maximum: 9223372036854775807 } } }
            """)
        try await withServer(stubs.url, options: options) { server in
            #expect(await Self.problems(server, "/data/2.5/forecast/9223372036854775807") == [])
            #expect(await Self.problems(server, "/data/2.5/forecast/-1") == ["path.id minimum"])
            #expect(await Self.problems(server, "/data/2.5/forecast/1?big=123456789012345678901234567") == [])
            #expect(await Self.problems(server, "/data/2.5/forecast/1?big=-999999999999999999999") == ["query.big minimum"])
            #expect(await Self.problems(server, "/data/2.5/forecast/1?big=2000000000000000000000000000000") == ["query.big maximum"])
        }
    }
}
