import Foundation
import StubdClient
import StubdCoreTestSupport
import StubdInProcess
import StubdProtocol
import Testing

/// Issue 63: "operation X was called N times with variables matching …", with the failure naming the
/// operations that were called, answered by the engine in the test process (no socket).
@Suite struct OperationAssertionTests {
    static let files = [
        "stubd.yml": """
        routes:
          - name: weather
            request: { path: /graphql, graphql: { operationName: GetWeather } }
            response: { json: { data: { weather: { tempC: 21 } } } }
          - name: search
            request: { path: /graphql, graphql: { operationName: Search } }
            response: { json: { data: { search: [] } } }
        """,
    ]

    private func call(_ stubs: InProcessStubs, _ operation: String, _ variables: String) async throws {
        let body = #"{"operationName":"\#(operation)","query":"query \#(operation) { x }","variables":\#(variables)}"#
        let answer = try await stubs.urlSession.get("http://api.example/graphql", method: "POST", body: body,
                                                     headers: ["Content-Type": "application/json"])
        #expect(answer.status == 200, "\(answer.text)")
    }

    @Test func anOperationCountedWithItsVariablesPassesAndAMiscountNamesWhatWasCalled() async throws {
        let stubs = try InProcessStubs.load(stubs: TempStubs(Self.files).url)
        defer { stubs.close() }
        try await call(stubs, "GetWeather", #"{"city":"Paris","units":"metric"}"#)
        try await call(stubs, "GetWeather", #"{"city":"Rome"}"#)
        try await call(stubs, "Search", #"{}"#)
        try await call(stubs, "Search", #"{}"#)

        #expect(try await StubFixture.operationMismatch(stubs, "GetWeather", expected: 2) == nil)
        #expect(try await StubFixture.operationMismatch(stubs, "Search", expected: 2) == nil)
        // Variables are matched as a subset: Paris's call also sent units.
        #expect(try await StubFixture.operationMismatch(stubs, "GetWeather", expected: 1,
                                                        variables: #"{"city":"Paris"}"#) == nil)
        let message = try #require(try await StubFixture.operationMismatch(stubs, "GetWeather", expected: 2,
                                                                           variables: #"{"city":"Paris"}"#))
        #expect(message == #"Expected GraphQL operation GetWeather {"city":"Paris"} called 2 times, but it was called 1 time; "#
                + #"operations called: GetWeather {"city":"Paris","units":"metric"} ×1, GetWeather {"city":"Rome"} ×1, Search ×2"#,
                "\(message)")
        let never = try #require(try await StubFixture.operationMismatch(stubs, "Forecast", expected: 1))
        #expect(never.hasPrefix("Expected GraphQL operation Forecast called 1 time, but it was called 0 times; operations called: "), "\(never)")
    }

    @Test func withNoGraphQLCallTheFailureSaysSo() async throws {
        let stubs = try InProcessStubs.load(stubs: TempStubs(Self.files).url)
        defer { stubs.close() }
        let message = try #require(try await StubFixture.operationMismatch(stubs, "GetWeather", expected: 1))
        #expect(message == "Expected GraphQL operation GetWeather called 1 time, but it was called 0 times; no GraphQL operation was called (0 requests journaled)",
                "\(message)")
    }

    @Test func theJournalShowsEachCallsOperationWithSecretVariablesMasked() async throws {
        let stubs = try InProcessStubs.load(stubs: TempStubs(Self.files).url)
        defer { stubs.close() }
        try await call(stubs, "GetWeather", #"{"city":"Oslo","password":"hunter2"}"#)
        _ = try await stubs.urlSession.get("http://api.example/graphql/other")
        let journal = try await stubs.adminClient.requests()
        let calls = journal.requests.map(\.graphQL)
        #expect(calls.count == 2 && calls[1] == nil, "a path no GraphQL route listens on is not read as GraphQL")
        let call = try #require(calls[0])
        #expect(call.operationName == "GetWeather")
        guard case .object(let variables) = call.variables else { Issue.record("variables: \(call.variables)"); return }
        #expect(variables["city"] == .string("Oslo"))
        #expect(variables["password"] != .string("hunter2"), "a secret field is masked as an export masks it: \(call)")
    }
}
