import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import StubdClient
import StubdXCTest
import WeatherService
import XCTest

/// The app's completion-block API against the example Stubs, with XCTest.
final class WeatherServiceXCTests: XCTestCase {
    func testSuccessBlockGetsSanFranciscoConditions() async throws {
        let server = try await startStubServer(stubs: Fixtures.stubs)

        let result = try await Fixtures.service(server).conditions(state: "CA", city: "San_Francisco")

        XCTAssertEqual(try result.get(), Conditions(temperatureF: 76.5, weather: "Partly Cloudy", city: "San Francisco"))
        await XCTAssertHits(server, Fixtures.conditionsPath("CA", "San_Francisco"), 1)
    }

    func testFailureBlockGetsServerError() async throws {
        let server = try await startStubServer(stubs: Fixtures.stubs)
        _ = try await server.addStub(StubRoute(.get("/api/KEY/conditions/q/CA/San_Francisco.json"), response: .status(500)))

        let result = try await Fixtures.service(server).conditions(state: "CA", city: "San_Francisco")

        XCTAssertEqual(result, .failure(.http(status: 500)))
    }

    func testFailureBlockGetsNotFoundForUnknownCity() async throws {
        let server = try await startStubServer(stubs: Fixtures.stubs)

        let result = try await Fixtures.service(server).conditions(state: "CA", city: "Atlantis")

        XCTAssertEqual(result, .failure(.notFound))
    }

    func testFailureBlockGetsQuotaExceededWithRetryAfter() async throws {
        let server = try await startStubServer(stubs: Fixtures.stubs)
        // 500 calls a day per key, counted in New York time: pre-filled rather than made.
        try await server.setQuotaUsed("wunderground", key: Fixtures.apiKey, used: ["day": 500])

        let result = try await Fixtures.service(server).conditions(state: "CA", city: "San_Francisco")

        guard case .failure(.quotaExceeded(let retryAfter)) = result else {
            return XCTFail("expected .quotaExceeded, got \(result)")
        }
        XCTAssertGreaterThan(retryAfter, 0)
        XCTAssertLessThanOrEqual(retryAfter, 25 * 3600)
    }

    func testExpectationIsFulfilledByHitsNotBySleeping() async throws {
        let server = try await startStubServer(stubs: Fixtures.stubs)
        let service = Fixtures.service(server)
        let twoCalls = expectation(hits: 2, on: Fixtures.anyConditions, of: server, timeout: .seconds(2))

        // Fire and forget, as a view controller would: the test learns of the calls from the server.
        service.fetchConditions(state: "CA", city: "San_Francisco", success: { _ in }, failure: { _ in })
        service.fetchConditions(state: "NY", city: "New_York", success: { _ in }, failure: { _ in })

        await fulfillment(of: [twoCalls], timeout: 3)
        await XCTAssertHits(server, Fixtures.conditionsPath("NY", "New_York"), 1)
        await XCTAssertHits(server, "GET /api/{key}/forecast/q/{zip}.json", 0)
    }

    /// The failure text, checked by asking the client directly (`XCTExpectFailure` is not on Linux).
    func testHitFailureMessageNamesTheNearestMiss() async throws {
        let server = try await startStubServer(stubs: Fixtures.stubs)
        // A typo in the app's path: "condition" for "conditions".
        let typo = server.baseURL.appendingPathComponent("api/KEY/condition/q/CA/San_Francisco.json")
        let (_, response) = try await server.urlSession.data(from: typo)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 404)

        let route = "GET /api/{key}/conditions/q/CA/{city}.json"
        let message = try await StubFixture.hitMismatch(server, route, expected: 1)
        let report = try await server.unmatchedReport()
        XCTAssertEqual(report.count, 1)
        XCTAssertEqual(message, StubdError.hitMessage(route: route, expected: 1, actual: 0, unmatched: 1, nearest: report.nearest))
        let text = try XCTUnwrap(message)
        XCTAssertTrue(text.hasPrefix("Expected 1 hit on GET /api/{key}/conditions/q/CA/{city}.json, but was 0 (1 unmatched request; nearest: GET "),
                      text)
        XCTAssertTrue(text.contains("/api/KEY/condition/q/CA/San_Francisco.json vs "), text)

        // waitForHits words its timeout the same way.
        do {
            _ = try await server.waitForHits(route, count: 1, timeout: .milliseconds(50))
            XCTFail("waitForHits should have timed out")
        } catch let error as StubdError {
            XCTAssertEqual(error.description, text)
        }
    }

    func testWellBehavedServiceMakesTheSameCallsEachGeneration() async throws {
        let server = try await startStubServer(stubs: Fixtures.stubs)
        let generations = HitGenerations(server)

        for _ in 0..<5 {
            // The scenario: the screen appears, shows the conditions once, goes away.
            let result = try await Fixtures.service(server).conditions(state: "CA", city: "San_Francisco")
            XCTAssertNoThrow(try result.get())
            try await generations.mark()
        }

        XCTAssertTrue(generations.isStable, generations.report)
        XCTAssertEqual(generations.representative.first?["GET /api/{key}/conditions/q/CA/San_Francisco.json"], 1)
    }

    func testLeakingPollerMakesMoreCallsEachGeneration() async throws {
        // Its own session, so the pollers that outlive this test (the bug) never land in another test's counts.
        let server = try await startStubServer(stubs: Fixtures.stubs).session("leak-\(UUID().uuidString)")
        let generations = HitGenerations(server)
        let leaked = "GET /api/{key}/conditions/q/CA/San_Francisco.json"
        // The test's clock, read through the server instead of slept on: one poller on another city,
        // ticking every 20 ms. Each generation lasts four of its ticks.
        let clock = Fixtures.conditionsPath("IL", "Chicago")
        _ = PollingWeatherService(baseURL: server.baseURL, apiKey: Fixtures.apiKey, state: "IL", city: "Chicago",
                                  session: server.urlSession)

        for _ in 1...5 {
            // The scenario: the screen appears and starts its widget (which is never stopped).
            _ = PollingWeatherService(baseURL: server.baseURL, apiKey: Fixtures.apiKey, state: "CA", city: "San_Francisco",
                                      session: server.urlSession)
            let ticks = try await server.hits(clock)
            _ = try await server.waitForHits(clock, count: ticks + 4, timeout: .seconds(2))
            try await generations.mark()
        }

        XCTAssertFalse(generations.isStable, generations.report)
        XCTAssertTrue(generations.report.contains("\(leaked): "), generations.report)
        let perGeneration = generations.representative.map { $0[leaked] ?? 0 }
        XCTAssertGreaterThan(perGeneration.last ?? 0, perGeneration.first ?? 0, generations.report)
    }
}
