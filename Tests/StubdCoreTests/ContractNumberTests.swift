import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// Numbers as a spec and a request write them (issues 39 and 44): int64's whole range through the
/// engine, bounds reported as bounds, and only an integer's spelling taken as an integer.
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
    static func problems(_ server: EngineHarness, _ path: String, headers: [String: String] = [:]) -> [String] {
        let r = server.get(path, headers: headers)
        if r.status == 200 { return [] }
        #expect(r.status == 422, "\(path): \(r.status) \(r.text)")
        return ((r.json["validation"] as? [[String: Any]]) ?? []).map { "\($0["location"] ?? "") \($0["code"] ?? "")" }
    }

    /// POSTs each case's `body` to `path` and its `query`, as `contentType`: with no problem `expected`
    /// the answer is a 201, else a 422 whose validation lists exactly those (location and code).
    static func expectPosted(_ server: EngineHarness, _ path: String, contentType: String = "application/json",
                             _ cases: [(String, String, [String])]) {
        for (query, body, expected) in cases {
            let r = server.http(path + query, method: "POST", body: body,
                                   headers: ["Content-Type": contentType])
            let problems = ((r.json["validation"] as? [[String: Any]]) ?? []).map { "\($0["location"] ?? "") \($0["code"] ?? "")" }
            #expect(r.status == (expected.isEmpty ? 201 : 422), "\(query) \(body): \(r.status) \(r.text)")
            #expect(problems.sorted() == expected, "\(query) \(body): \(r.text)")
        }
    }

    /// The one stub the forecast specs' strict servers answer with.
    static let forecast = ["data/2.5/forecast/{id}.json": #"{"list": []}"#]

    /// A folder of one route: `POST path` answers 201 `{}`.
    static func posting(_ path: String) -> [String: String] {
        ["stubd.yml": "routes:\n  - request: { method: POST, path: \(path) }\n    responses:\n      - { status: 201, json: {} }\n"]
    }

    /// Issue 44 item 1: the generated Swift client sends `Int64`; its maximum went through a Double
    /// and came out as 2^63, refused as "expected an integer, got the string".
    @Test func everyInt64IsTakenInThePathAndAHeaderAndNothingPastIt() throws {
        try withStrictEngine(spec: Self.spec, stubs: Self.forecast) { server in
            for id in ["9223372036854775807", "9223372036854775295", "-9223372036854775808", "0", "42"] {
                #expect(Self.problems(server, "/data/2.5/forecast/\(id)") == [], "\(id)")
            }
            #expect(Self.problems(server, "/data/2.5/forecast/1", headers: ["X-Trace": "9223372036854775807"]) == [])
            for id in ["9223372036854775808", "-9223372036854775809", "18446744073709551615"] {
                #expect(Self.problems(server, "/data/2.5/forecast/\(id)") == ["path.id format"], "\(id)")
            }
            #expect(Self.problems(server, "/data/2.5/forecast/1", headers: ["X-Trace": "9223372036854775808"]) == ["header.X-Trace format"])
        }
    }

    /// Issue 44 item 2: Twilio's PageSize (1–1000); out of range is a bound, not a type; and an
    /// integer is written in digits (`1.0` and `1e3` are JSON Schema integers in a JSON body, not in
    /// a query string: see RequestValidation).
    @Test func aBoundIsReportedAsABoundAndOnlyDigitsSpellAnInteger() throws {
        try withStrictEngine(spec: Self.spec, stubs: Self.forecast) { server in
            for good in ["1", "50", "1000"] {
                #expect(Self.problems(server, "/data/2.5/forecast/1?PageSize=\(good)") == [], "\(good)")
            }
            for low in ["0", "-1"] {
                #expect(Self.problems(server, "/data/2.5/forecast/1?PageSize=\(low)") == ["query.PageSize minimum"], "\(low)")
            }
            for high in ["1001", "5000"] {
                #expect(Self.problems(server, "/data/2.5/forecast/1?PageSize=\(high)") == ["query.PageSize maximum"], "\(high)")
            }
            for odd in ["0x10", "%2B5", "1e3", "1.0", "010", "5.", ".5", "inf", "1%20"] {
                #expect(Self.problems(server, "/data/2.5/forecast/1?PageSize=\(odd)") == ["query.PageSize type"], "\(odd)")
            }
            for odd in ["0x10", "1e3", "1.0"] {
                #expect(Self.problems(server, "/data/2.5/forecast/\(odd)") == ["path.id type"], "\(odd)")
            }
        }
    }

    /// Issue 39 item 6: int64's maximum as a bound (common in generated Java, Go and Kotlin specs), or
    /// a bound past any integer type, refused the whole spec ("Expected an Integer literal but found a
    /// floating point value").
    @Test func aBoundPastInt64LoadsAndHolds() throws {
        let spec = """
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
            """
        try withStrictEngine(spec: spec, stubs: Self.forecast) { server in
            #expect(Self.problems(server, "/data/2.5/forecast/9223372036854775807") == [])
            #expect(Self.problems(server, "/data/2.5/forecast/-1") == ["path.id minimum"])
            #expect(Self.problems(server, "/data/2.5/forecast/1?big=123456789012345678901234567") == [])
            #expect(Self.problems(server, "/data/2.5/forecast/1?big=-999999999999999999999") == ["query.big minimum"])
            #expect(Self.problems(server, "/data/2.5/forecast/1?big=2000000000000000000000000000000") == ["query.big maximum"])
        }
    }

    /// Issue 44 item 1 (the rest): a JSON body's numbers went through a Double, so 9223372036854775808
    /// passed `format: int64` and `maximum: 9223372036854775807` (both 2^63 as Doubles), and enum,
    /// const and multipleOf could not tell neighbours apart past 2^53. They are judged as written.
    @Test func aBodysIntegersPast2To53AreJudgedAsWritten() throws {
        let spec = """
            openapi: 3.1.0
            info: { title: Ids, version: "1" }
            paths:
              /ids:
                post:
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema:
                          type: object
                          properties:
                            id: { type: integer, format: int64, maximum: 9223372036854775807 }
                            capped: { type: integer, maximum: 9223372036854775806 }
                            floor: { type: integer, exclusiveMinimum: 9007199254740992 }
                            step: { type: integer, multipleOf: 10 }
                            pick: { enum: [9007199254740993, 1] }
                            same: { const: 18446744073709551615 }
                            whole: { type: integer }
                  responses:
                    "201": { description: made, content: { application/json: { schema: { type: object } } } }
            """
        try withStrictEngine(spec: spec, stubs: Self.posting("/ids")) { server in
            let cases: [(String, [String])] = [
                (#"{"id": 9223372036854775807}"#, []),
                (#"{"id": 9223372036854775808}"#, ["body/id format", "body/id maximum"]),
                (#"{"id": -9223372036854775809}"#, ["body/id format"]),
                (#"{"id": -9223372036854775808}"#, []),
                (#"{"capped": 9223372036854775806}"#, []),
                (#"{"capped": 9223372036854775807}"#, ["body/capped maximum"]),
                (#"{"floor": 9007199254740993}"#, []),
                (#"{"floor": 9007199254740992}"#, ["body/floor exclusiveMinimum"]),
                (#"{"step": 90071992547409940}"#, []),
                (#"{"step": 90071992547409941}"#, ["body/step multipleOf"]),
                (#"{"pick": 9007199254740993}"#, []),
                (#"{"pick": 9007199254740992}"#, ["body/pick enum"]),
                (#"{"same": 18446744073709551615}"#, []),
                (#"{"same": 18446744073709551614}"#, ["body/same const"]),
                (#"{"whole": 9007199254740993}"#, []),
                (#"{"whole": 9007199254740993.5}"#, ["body/whole type"]),
            ]
            Self.expectPosted(server, "/ids", cases.map { ("", $0.0, $0.1) })
            // The message names the number as sent, not the Double it rounds to.
            let r = server.http("/ids", method: "POST", body: #"{"capped": 9223372036854775807}"#,
                                   headers: ["Content-Type": "application/json"])
            #expect(r.text.contains("expected a number <= 9223372036854775806, got 9223372036854775807"), "\(r.text)")
        }
    }

    /// The spec's own numbers are kept wherever it writes them: in a JSON file, and in a Swagger 2.0
    /// spec, whose bounds move when it is read as 3.0 (`#/definitions/Id` → `#/components/schemas/Id`,
    /// a query parameter's `maximum` into its `schema`), so each is found where it was written.
    @Test func aSwagger2JSONSpecsBoundsPast2To53AreKeptAsWritten() throws {
        let spec = """
            {
              "swagger": "2.0",
              "info": { "title": "Ids", "version": "1" },
              "paths": {
                "/ids": {
                  "post": {
                    "consumes": ["application/json"],
                    "parameters": [
                      { "name": "body", "in": "body", "required": true, "schema": { "$ref": "#/definitions/Id" } },
                      { "name": "after", "in": "query", "type": "integer", "minimum": 9007199254740993 }
                    ],
                    "produces": ["application/json"],
                    "responses": { "201": { "description": "made", "schema": { "type": "object" } } }
                  }
                }
              },
              "definitions": {
                "Id": { "type": "object", "properties": { "id": { "type": "integer", "maximum": 9223372036854775806 } } }
              }
            }
            """
        try withStrictEngine(spec: spec, specFile: "swagger.json", stubs: Self.posting("/ids")) { server in
            let cases: [(String, String, [String])] = [
                ("", #"{"id": 9223372036854775806}"#, []),
                ("", #"{"id": 9223372036854775807}"#, ["body/id maximum"]),
                ("?after=9007199254740993", #"{"id": 1}"#, []),
                ("?after=9007199254740992", #"{"id": 1}"#, ["query.after minimum"]),
            ]
            Self.expectPosted(server, "/ids", cases)
        }
    }

    /// Issue 44 item 1 says every parameter location and body: the items and members of a styled
    /// parameter and a form body's fields were read into Doubles, so `ids=1,9223372036854775808`
    /// passed `format: int64` and a form's `id=9223372036854775808` did too.
    @Test func styledItemsAndFormFieldsPast2To53AreJudgedAsWritten() throws {
        let spec = """
            openapi: 3.1.0
            info: { title: Forms, version: "1" }
            paths:
              /forms:
                post:
                  parameters:
                    - { name: ids, in: query, style: form, explode: false, schema: { type: array, items: { type: integer, format: int64 } } }
                    - { name: at, in: query, style: deepObject, schema: { type: object, properties: { n: { type: integer, maximum: 9223372036854775806 } } } }
                  requestBody:
                    content:
                      application/x-www-form-urlencoded:
                        schema:
                          type: object
                          properties:
                            id: { type: integer, format: int64 }
                            caps: { type: array, items: { type: integer, maximum: 9223372036854775806 } }
                            csv: { type: array, items: { type: integer, format: int64 } }
                        encoding:
                          csv: { style: form, explode: false }
                  responses:
                    "201": { description: made, content: { application/json: { schema: { type: object } } } }
            """
        try withStrictEngine(spec: spec, stubs: Self.posting("/forms")) { server in
            let cases: [(String, String, [String])] = [
                ("?ids=9223372036854775807,-9223372036854775808", "id=1", []),
                ("?ids=1,9223372036854775808", "id=1", ["query.ids/1 format"]),
                ("?at%5Bn%5D=9223372036854775806", "id=1", []),
                ("?at%5Bn%5D=9223372036854775807", "id=1", ["query.at/n maximum"]),
                ("", "id=9223372036854775807", []),
                ("", "id=9223372036854775808", ["body/id format"]),
                ("", "caps=1&caps=9223372036854775806", []),
                ("", "caps=1&caps=9223372036854775807", ["body/caps/1 maximum"]),
                ("", "csv=1,-9223372036854775809", ["body/csv/1 format"]),
            ]
            Self.expectPosted(server, "/forms", contentType: "application/x-www-form-urlencoded", cases)
        }
    }

    /// The exact integers the validator compares: a Double's own digits, and a literal's integer part.
    @Test func exactIntegersReadLiteralsAndDoublesDigitForDigit() {
        #expect(ExactInteger(9223372036854775808.0)?.description == "9223372036854775808")
        #expect(ExactInteger(1e30)?.description == "1000000000000000019884624838656")
        #expect(ExactInteger(-4.5) == nil)
        #expect(NumberLiteral("9223372036854775807")?.integerPart.description == "9223372036854775807")
        #expect(NumberLiteral("1.5e20")?.integerPart.description == "150000000000000000000")
        #expect(NumberLiteral("-0.5")?.compare(to: ExactInteger(Int64(0))) == -1)
        #expect(NumberLiteral("-3.5")?.compare(to: ExactInteger(Int64(-3))) == -1)
        #expect(NumberLiteral("-3.5")?.compare(to: ExactInteger(Int64(-4))) == 1)
        #expect(NumberLiteral("7.25")?.compare(to: ExactInteger(Int64(7))) == 1)
        #expect(ExactInteger(negative: false, magnitude: UInt64.max).remainder(dividingBy: 10) == 5)
        #expect(ExactInteger(Int64(-5)) < ExactInteger(Int64(-4)))
        #expect(ExactInteger(Int64(-40)) < ExactInteger(Int64(-5)))
        #expect(ExactInteger(Int64(-1)) < ExactInteger(Int64(0)))
    }
}
