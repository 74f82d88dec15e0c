public import Foundation
public import StubdClient
import StubdProtocol
public import XCTest

extension XCTestCase {
    /// Stubs for this test: when `STUBD_URL` is set (docker-compose, `stubd serve` in a terminal), a
    /// fresh session on that daemon; else an in-process `StubServer` on 127.0.0.1 where Stubd is linked
    /// (Linux and macOS, the `InProcessServer` trait); else the engine answering without a socket. Give
    /// the code under test the control's `urlSession`: it reaches the stubs each way.
    ///
    /// The teardown is registered here: the server is stopped, or the session reset, after the test.
    /// A failure to start (a `CatalogLoadError` listing every problem, an unreachable `STUBD_URL`) is
    /// recorded once, at the call site; the test then stops with an `XCTSkip`, the one error XCTest
    /// does not record as a second failure (any other would be reported again, at `<EXPR>:0`).
    ///
    /// ```swift
    /// let server = try await startStubServer(stubs: stubsURL)
    /// let service = WeatherService(baseURL: server.baseURL, apiKey: "KEY", session: server.urlSession)
    /// ```
    public func startStubServer(stubs: URL, file: StaticString = #filePath, line: UInt = #line) async throws -> any StubControl {
        let fixture: StubFixture.Started
        do {
            fixture = try await StubFixture.startWhereItRuns(stubs: stubs)
        } catch {
            XCTFail("startStubServer(stubs: \(stubs.path)) failed: \(error)", file: file, line: line)
            // The test must stop here, and XCTest reports any thrown error as a failure of its own,
            // except a skip: the failure above keeps the test failed, with its one report.
            throw XCTSkip("stopped: the stub server did not start (the failure above says why)", file: file, line: line)
        }
        let teardown = fixture.teardown
        addTeardownBlock { await teardown() }
        return fixture.control
    }

    /// An expectation fulfilled once `route` has been hit `count` times on `server`.
    ///
    /// The server holds a long-poll (`StubControl.waitForHits`) for it: nothing sleeps or polls. When
    /// `timeout` passes first the expectation stays unfulfilled and the readable failure
    /// (`Expected 2 hits on …, but was 1 (…)`) is recorded at `file`/`line`; give `fulfillment(of:timeout:)`
    /// a slightly longer timeout than this one so that message arrives before the test ends (a wait
    /// still pending at teardown is cancelled, and reports nothing).
    public func expectation(hits count: Int, on route: String, of server: any StubControl,
                            timeout: Duration = .seconds(5),
                            file: StaticString = #filePath, line: UInt = #line) -> XCTestExpectation {
        let expectation = XCTestExpectation(description: "\(count) hit\(count == 1 ? "" : "s") on \(route)")
        let wait = Task {
            do {
                _ = try await server.waitForHits(route, count: count, timeout: timeout)
                expectation.fulfill()
            } catch {
                // After this test's teardown a failure would land on whichever test runs next.
                guard !Task.isCancelled else { return }
                XCTFail("\(error)", file: file, line: line)
            }
        }
        addTeardownBlock { wait.cancel() }
        return expectation
    }
}

/// Asserts that `route` (a name, a pattern such as `GET /api/{key}/**`, or a concrete path) has exactly
/// `expected` hits on `server`. The failure reads like a matcher's:
/// `Expected 1 hit on GET /api/{key}/conditions/q/CA/{city}.json, but was 0 (2 unmatched requests; nearest: …)`.
public func XCTAssertHits(_ server: any StubControl, _ route: String, _ expected: Int,
                          file: StaticString = #filePath, line: UInt = #line) async {
    await failOnMismatch("XCTAssertHits(\(route))", file, line) {
        try await StubFixture.hitMismatch(server, route, expected: expected)
    }
}

/// Asserts that the GraphQL operation `operation` was called exactly `expected` times on `server` (with
/// variables including `variables`, JSON text such as `{"city":"Paris"}`, when given). The failure names the
/// operations that were called: `Expected GraphQL operation GetWeather {"city":"Paris"} called 2
/// times, but it was called 1 time; operations called: GetWeather {"city":"Paris"} ×1, Search ×2`.
public func XCTAssertOperation(_ server: any StubControl, _ operation: String, _ expected: Int, variables: String? = nil,
                               file: StaticString = #filePath, line: UInt = #line) async {
    await failOnMismatch("XCTAssertOperation(\(operation))", file, line) {
        try await StubFixture.operationMismatch(server, operation, expected: expected, variables: variables)
    }
}

/// Asserts that the session's scenario `scenario` is in state `expected`. The failure names the state
/// it is in and the states it has: `Expected scenario cart in state 'paid', but it is in 'has-item' (its states: Started, has-item, paid)`.
/// For a keyed scenario give `key`: `XCTAssertScenarioState(server, "order", "paid", key: "17")`.
public func XCTAssertScenarioState(_ server: any StubControl, _ scenario: String, _ expected: String, key: String? = nil,
                                   file: StaticString = #filePath, line: UInt = #line) async {
    await failOnMismatch("XCTAssertScenarioState(\(scenario))", file, line) {
        try await server.scenario(scenario).stateMismatch(expected: expected, key: key)
    }
}

/// Asserts that the session holds `expected` items of the resource `resource`. The failure lists
/// the items it holds: `Expected 3 todos, was 2: {"id":1,"title":"a"}, {"id":2,"title":"b"}`.
public func XCTAssertItemCount(_ server: any StubControl, _ resource: String, _ expected: Int,
                               file: StaticString = #filePath, line: UInt = #line) async {
    await failOnMismatch("XCTAssertItemCount(\(resource))", file, line) {
        try await server.resource(resource).countMismatch(expected: expected)
    }
}

/// Asserts that requests reached every answer, network behaviour and quota state of the stubs on
/// `server` (a session: since its last reset; the server itself: since it started), but those in
/// `except` (a route's name or signature, or `ROUTE: ITEM` such as `flaky: answer 2`). The failure
/// names each one missed and how to reach it: "no test saw the 429 of quota `wunderground` on GET
/// /api/{key}/conditions/…: send 11 requests within a minute, or set `used` with `PUT /__stubd/quotas/wunderground` …".
public func XCTAssertStubsCovered(_ server: any StubControl, except: [String] = [],
                                  file: StaticString = #filePath, line: UInt = #line) async {
    await failOnMismatch("XCTAssertStubsCovered", file, line) {
        try await server.coverage().uncoveredMessage(except: except)
    }
}

/// The one way every `XCTAssert…` helper fails: with the readable mismatch `check` returns, or, when
/// asking the server failed, with `call: error`.
func failOnMismatch(_ call: @autoclosure () -> String, _ file: StaticString, _ line: UInt,
                    _ check: () async throws -> String?) async {
    do {
        if let message = try await check() { XCTFail(message, file: file, line: line) }
    } catch {
        XCTFail("\(call()): \(error)", file: file, line: line)
    }
}
