public import Foundation
public import StubdClient
import StubdProtocol
public import Testing

/// Runs `body` with stubs of its own: when `STUBD_URL` is set, a fresh session on that daemon; else an
/// in-process `StubServer` on 127.0.0.1 where Stubd is linked (Linux and macOS, the `InProcessServer`
/// trait); else the engine answering without a socket. They are torn down after `body`, also when it
/// throws. A failure to start is recorded once, at `sourceLocation`, and ends the test (rethrown before Swift 6.3). Give the code under test
/// the control's `urlSession`: it reaches the stubs each way.
///
/// ```swift
/// @Test func sanFrancisco() async throws {
///     try await withStubServer(stubs: stubsURL) { server in
///         let service = WeatherService(baseURL: server.baseURL, apiKey: "KEY", session: server.urlSession)
///         …
///     }
/// }
/// ```
public func withStubServer<R>(stubs: URL, sourceLocation: SourceLocation = #_sourceLocation,
                              isolation: isolated (any Actor)? = #isolation,
                              _ body: (any StubControl) async throws -> R) async throws -> R {
    let fixture: StubFixture.Started
    do {
        fixture = try await StubFixture.startWhereItRuns(stubs: stubs)
    } catch {
        Issue.record(error, "withStubServer(stubs: \(stubs.path)) failed", sourceLocation: sourceLocation)
        #if compiler(>=6.3)
        // Rethrown, the error was a second issue saying the same at the test's line (a broken folder
        // reported twice); a cancellation ends the test with the one issue above (Swift 6.3.1).
        try Test.cancel("the stubs did not start: the issue above says why", sourceLocation: sourceLocation)
        #else
        throw error
        #endif
    }
    return try await fixture.run(body)
}

/// Records an issue unless `route` (a name, a pattern, or a concrete path) has exactly `expected` hits:
/// `Expected 1 hit on GET /api/{key}/conditions/q/CA/{city}.json, but was 0 (2 unmatched requests; nearest: …)`.
public func expectHits(_ server: any StubControl, _ route: String, _ expected: Int,
                       sourceLocation: SourceLocation = #_sourceLocation) async {
    await recordMismatch("expectHits(\(route))", sourceLocation) {
        try await StubFixture.hitMismatch(server, route, expected: expected)
    }
}

/// Records an issue unless the GraphQL operation `operation` was called exactly `expected` times
/// (with variables including `variables`, JSON text such as `{"city":"Paris"}`, objects member by member, when given), naming the
/// operations that were: `Expected GraphQL operation GetWeather {"city":"Paris"} called 2 times, but
/// it was called 1 time; operations called: GetWeather {"city":"Paris"} ×1, Search ×2`.
public func expectOperation(_ server: any StubControl, _ operation: String, _ expected: Int, variables: String? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) async {
    await recordMismatch("expectOperation(\(operation))", sourceLocation) {
        try await StubFixture.operationMismatch(server, operation, expected: expected, variables: variables)
    }
}

/// Records an issue unless the session's scenario `scenario` is in state `expected`, naming the
/// state it is in: `Expected scenario cart in state 'paid', but it is in 'has-item' (its states: Started, has-item, paid)`.
/// For a keyed scenario give `key`: `await expectScenarioState(server, "order", "paid", key: "17")`.
public func expectScenarioState(_ server: any StubControl, _ scenario: String, _ expected: String, key: String? = nil,
                                sourceLocation: SourceLocation = #_sourceLocation) async {
    await recordMismatch("expectScenarioState(\(scenario))", sourceLocation) {
        try await server.scenario(scenario).stateMismatch(expected: expected, key: key)
    }
}

/// Records an issue unless the session holds `expected` items of the resource `resource`, listing
/// those it holds: `Expected 3 todos, was 2: {"id":1,"title":"a"}, {"id":2,"title":"b"}`.
public func expectItemCount(_ server: any StubControl, _ resource: String, _ expected: Int,
                            sourceLocation: SourceLocation = #_sourceLocation) async {
    await recordMismatch("expectItemCount(\(resource))", sourceLocation) {
        try await server.resource(resource).countMismatch(expected: expected)
    }
}

/// Waits until `route` has `count` hits, for callbacks that come later (Swift Testing's `confirmation`
/// does not wait for them). The server holds a long-poll; nothing sleeps. After `within` without
/// enough hits, records the readable timeout message as an issue at `sourceLocation`.
public func confirmHits(_ server: any StubControl, _ route: String, count: Int, within timeout: Duration = .seconds(2),
                        sourceLocation: SourceLocation = #_sourceLocation) async {
    do {
        _ = try await server.waitForHits(route, count: count, timeout: timeout)
    } catch let error as StubdError {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
    } catch {
        Issue.record(error, "confirmHits(\(route))", sourceLocation: sourceLocation)
    }
}

/// Records an issue unless requests reached every answer, network behaviour and quota state of the
/// stubs on `server` (a session: since its last reset; the server itself: since it started), but those
/// in `except` (a route's name or signature, or `ROUTE: ITEM` such as `flaky: answer 2`). The issue
/// names each one missed and how to reach it.
public func expectStubsCovered(_ server: any StubControl, except: [String] = [],
                               sourceLocation: SourceLocation = #_sourceLocation) async {
    await recordMismatch("expectStubsCovered", sourceLocation) {
        try await server.coverage().uncoveredMessage(except: except)
    }
}

/// The one way every `expect…` helper reports: the readable mismatch `check` returns as the issue,
/// or, when asking the server failed, that error under the helper's `call`.
func recordMismatch(_ call: @autoclosure () -> String, _ sourceLocation: SourceLocation,
                    _ check: () async throws -> String?) async {
    do {
        if let message = try await check() {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record(error, Comment(rawValue: call()), sourceLocation: sourceLocation)
    }
}
