import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import Testing
import WeatherAPI

/// The weather spec's generated `Client` against `stubd serve --spec` on the stubs imported from the
/// same spec (issue 44 item 6): each operation's default answer decodes, each documented error comes
/// back as its case with its headers when asked for with `Prefer`, an undocumented status is
/// `.undocumented`, and strict validation takes what the client sends and refuses what breaks the spec.
@Suite struct WeatherClientTests {
    static func client(_ server: StubdProcess, prefer: String? = nil) -> WeatherAPI.Client {
        WeatherAPI.Client(serverURL: server.baseURL, transport: URLSessionTransport(),
                          middlewares: prefer.map { [PreferMiddleware(prefer: $0)] } ?? [])
    }

    @Test func everyOperationsDefaultAnswerDecodes() async throws {
        let server = try StubdProcess(spec: Spec.weather)
        defer { server.stop() }
        let client = Self.client(server)

        let weather = try await client.getWeather(path: .init(city: "Leeds")).ok
        let now = try weather.body.json
        #expect(!now.city.isEmpty)
        #expect((-90...60).contains(now.temp))
        #expect(weather.headers.xRateLimitLimit == 60)

        let category = try await client.getCategory(path: .init(id: 1)).ok.body.json
        #expect(category.id >= 1)
        #expect((3...20).contains(category.name.count))

        let reports = try await client.listReports(query: .init(limit: 50)).ok.body.json
        #expect(reports.count >= 2)
        #expect(reports.allSatisfy { (2...4).contains($0.tags.count) })

        let created = try await client.createReport(body: .json(.init(unvalidatedValue: ["city": "Leeds"]))).created.body.json
        #expect(created.code.wholeMatch(of: /[A-Z]{3}-\d{4}/) != nil)

        _ = try await client.deleteReport(path: .init(id: UUID().uuidString)).noContent

        let status = try await String(collecting: client.status().ok.body.plainText, upTo: 1024)
        #expect(status.wholeMatch(of: /up [0-9]+ days/) != nil, "\(status)")
    }

    @Test func aNamedExampleIsChosenWithPrefer() async throws {
        let server = try StubdProcess(spec: Spec.weather)
        defer { server.stop() }
        let sunny = try await Self.client(server, prefer: "example=sunny").getWeather(path: .init(city: "London")).ok.body.json
        #expect(sunny.city == "London")
        #expect(sunny.conditions == .clear)
        #expect(sunny.wind?.direction == 270)
        let rainy = try await Self.client(server, prefer: "example=rainy").getWeather(path: .init(city: "Leeds")).ok.body.json
        #expect(rainy.conditions == .rain)
    }

    /// Every error the spec documents, asked for with `Prefer: code=…`: the 404s and 429s decode as
    /// their cases, the 429's `Retry-After` and `X-RateLimit-*` headers as typed values.
    @Test func everyDocumentedErrorComesBackAsItsCase() async throws {
        let server = try StubdProcess(spec: Spec.weather)
        defer { server.stop() }
        let notFound = Self.client(server, prefer: "code=404")
        let limited = Self.client(server, prefer: "code=429")

        let missing = try await notFound.getWeather(path: .init(city: "Atlantis")).notFound.body.applicationProblemJson
        #expect((400...599).contains(missing.status))
        let gone = try await notFound.deleteReport(path: .init(id: UUID().uuidString)).notFound.body.applicationProblemJson
        #expect(!gone.title.isEmpty)

        var retries: [Int] = []
        let weather = try await limited.getWeather(path: .init(city: "Leeds")).tooManyRequests
        retries.append(weather.headers.retryAfter)
        #expect(weather.headers.xRateLimitRemaining?.rawValue == 0)
        #expect((weather.headers.xRateLimitReset ?? 0) >= 1_700_000_000)
        #expect(try weather.body.applicationProblemJson.status == 429)
        retries.append(try await limited.getCategory(path: .init(id: 7)).tooManyRequests.headers.retryAfter)
        retries.append(try await limited.createReport(body: .json(.init())).tooManyRequests.headers.retryAfter)
        #expect(retries.allSatisfy { (1...3600).contains($0) }, "\(retries)")
    }

    /// What the generated client sends keeps to the spec, so strict mode serves it: the bounds of
    /// `limit`, an `Int` path parameter up to `Int.max` (int64, issue 44 item 1), a UUID, a JSON body.
    @Test func strictModeTakesWhatTheClientSends() async throws {
        let server = try StubdProcess(spec: Spec.weather)
        defer { server.stop() }
        let client = Self.client(server)
        for limit in [1, 50] {
            _ = try await client.listReports(query: .init(limit: limit)).ok
        }
        _ = try await client.listReports().ok
        for id in [1, Int.max] {
            _ = try await client.getCategory(path: .init(id: id)).ok
        }
        _ = try await client.deleteReport(path: .init(id: UUID().uuidString)).noContent
        _ = try await client.createReport(body: .json(.init(unvalidatedValue: ["n": Int.max, "tags": ["a", "b"]]))).created
        #expect(!server.log.contains("breaks the spec"), "\(server.log)")
    }

    /// The client does not check bounds or formats; stubd does. A spec with no 422 makes strict
    /// mode's refusal `.undocumented(422)`, and its problem names the parameter and the rule.
    @Test func strictModeRefusesWhatBreaksTheSpec() async throws {
        let server = try StubdProcess(spec: Spec.weather)
        defer { server.stop() }
        let client = Self.client(server)
        let tooMany = try await client.listReports(query: .init(limit: 51))
        if case .undocumented(let status, let payload) = tooMany { try await Self.expectRefusal("query.limit maximum", status, payload) } else { Issue.record("limit 51: \(tooMany)") }
        let none = try await client.listReports(query: .init(limit: 0))
        if case .undocumented(let status, let payload) = none { try await Self.expectRefusal("query.limit minimum", status, payload) } else { Issue.record("limit 0: \(none)") }
        let zero = try await client.getCategory(path: .init(id: 0))
        if case .undocumented(let status, let payload) = zero { try await Self.expectRefusal("path.id minimum", status, payload) } else { Issue.record("id 0: \(zero)") }
        // A string format is an annotation unless asked (issue 39 item 4, as JSON Schema 2020-12
        // says): the default takes the malformed UUID, `--formats assert` refuses it.
        let annotated = try await client.deleteReport(path: .init(id: "not-a-uuid"))
        if case .noContent = annotated {} else { Issue.record("id not-a-uuid, formats annotated: \(annotated)") }
        let asserting = try StubdProcess(spec: Spec.weather, serveArguments: ["--formats", "assert"])
        defer { asserting.stop() }
        let notUUID = try await Self.client(asserting).deleteReport(path: .init(id: "not-a-uuid"))
        if case .undocumented(let status, let payload) = notUUID { try await Self.expectRefusal("path.id format", status, payload) } else { Issue.record("id not-a-uuid: \(notUUID)") }
    }

    /// Strict mode's 422: its problem+json lists the violation as "LOCATION CODE".
    static func expectRefusal(_ expected: String, _ status: Int, _ payload: UndocumentedPayload) async throws {
        #expect(status == 422, "\(expected)")
        let problem = try await String(collecting: try #require(payload.body), upTo: 64 * 1024)
        let json = try JSONSerialization.jsonObject(with: Data(problem.utf8)) as? [String: Any]
        let found = ((json?["validation"] as? [[String: Any]]) ?? []).map { "\($0["location"] ?? "") \($0["code"] ?? "")" }
        #expect(found == [expected], "\(problem)")
    }

    /// A status the spec does not document: a runtime stub answers 503, and the client returns
    /// `.undocumented(statusCode: 503, …)` instead of throwing. In report mode stubd serves it and
    /// says in `X-Stubd-Contract` that the spec has no 503 (issue 44 item 4).
    @Test func anUndocumentedStatusIsUndocumented() async throws {
        let server = try StubdProcess(spec: Spec.weather, validate: "report")
        defer { server.stop() }
        let added = try await server.addStub(#"{"request": {"method": "GET", "path": "/weather/Atlantis"}, "response": {"status": 503, "headers": {"Retry-After": "120"}, "body": "down for maintenance"}}"#)
        #expect(added.status == 201, "\(added.body)")
        let output = try await Self.client(server).getWeather(path: .init(city: "Atlantis"))
        guard case .undocumented(statusCode: let status, let payload) = output else {
            Issue.record("expected .undocumented(503), got \(output)")
            return
        }
        #expect(status == 503)
        #expect(payload.headerFields[HTTPField.Name("Retry-After")!] == "120")
        let body = try await String(collecting: payload.body!, upTo: 1024)
        #expect(body == "down for maintenance")
        #expect(payload.headerFields[HTTPField.Name("X-Stubd-Contract")!]?.contains("503") == true)
    }

    /// Strict mode holds runtime stubs to the spec as it holds file stubs (issue 44 item 4): a 503
    /// the spec does not declare is refused with 422, and nothing is added.
    @Test func strictModeRefusesARuntimeStubTheSpecDoesNotDeclare() async throws {
        let server = try StubdProcess(spec: Spec.weather)
        defer { server.stop() }
        let added = try await server.addStub(#"{"request": {"method": "GET", "path": "/weather/Atlantis"}, "response": {"status": 503}}"#)
        let output = try await Self.client(server).getWeather(path: .init(city: "Atlantis"))
        #expect(added.status == 422, "\(added.body)")
        #expect(added.body.contains("503"), "\(added.body)")
        if case .undocumented(statusCode: 503, _) = output { Issue.record("the refused 503 stub answered") }
    }
}
