import Foundation
import StubdClient
import StubdCoreTestSupport
import StubdInProcess
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The engine answering URLSession inside the test process, without a socket (issue 60): each test
/// here links no libmicrohttpd (this target depends on StubdInProcess alone) and makes real
/// `URLSession` requests, whose answers come through `StubURLProtocol`.
@Suite struct InProcessAnswerTests {
    /// A stub answers a request to any host, and the hit is counted in the view's session.
    @Test func aStubAnswersAnyHostAndItsHitIsCounted() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        let r = try await stubs.urlSession.get("https://api.wunderground.example/api/KEY/conditions/q/CA/San_Francisco.json")
        #expect(r.status == 200)
        #expect(r.text.contains("76.5"))
        #expect(r.response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
        #expect(try await stubs.hits("GET /api/{key}/conditions/q/CA/San_Francisco.json") == 1)
        // baseURL reaches the same session through the same protocol.
        let viaBase = try await stubs.urlSession.get(stubs.baseURL.absoluteString + "/api/KEY/conditions/q/CA/San_Francisco.json")
        #expect(viaBase.status == 200)
        #expect(try await stubs.hits("GET /api/{key}/conditions/q/CA/San_Francisco.json") == 2)
    }

    /// The eleventh call in a minute gets the quota's 429 with its headers; moving the session's
    /// virtual clock a minute (no sleeping) lets the key in again.
    @Test func aQuota429IsLiftedByAClockAdvance() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        let url = "http://api.example/api/KEY/conditions/q/CA/San_Francisco.json"
        for i in 1...10 {
            let r = try await stubs.urlSession.get(url)
            #expect(r.status == 200)
            #expect(r.response.value(forHTTPHeaderField: "RateLimit") == "\"minute\";r=\(10 - i);t=60")
        }
        let refused = try await stubs.urlSession.get(url)
        #expect(refused.status == 429)
        #expect(refused.response.value(forHTTPHeaderField: "Retry-After") == "60")
        try await stubs.advanceClock(by: .seconds(60))
        #expect(try await stubs.urlSession.get(url).status == 200)
    }

    /// A scenario moves a step on a POST, and `scenario(_:)` reads and sets its state in process.
    @Test func aScenarioStepsOnARequest() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        #expect(try await stubs.urlSession.get("http://shop.example/cart").text.contains("[]"))
        #expect(try await stubs.urlSession.get("http://shop.example/cart", method: "POST").status == 201)
        #expect(try await stubs.scenario("cart").state() == "has-item")
        #expect(try await stubs.urlSession.get("http://shop.example/cart").text.contains("tea"))
        try await stubs.scenario("cart").set("Started")
        #expect(try await stubs.urlSession.get("http://shop.example/cart").text.contains("[]"))
    }

    /// A template sees the request's body and headers as a socket's request has them.
    @Test func aTemplateSeesTheBodyAndHeaders() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        let r = try await stubs.urlSession.get("http://x.example/echo", method: "POST", body: "ping", headers: ["X-Trace": "t-1"])
        #expect(r.status == 200)
        #expect(r.text == "ping via t-1")
    }

    /// Faults come as URLSession reports them over a real socket on this platform.
    @Test func faultsComeAsURLSessionReportsThem() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        let reset = await failure { _ = try await stubs.urlSession.get("http://x.example/reset") }
        #expect(reset == .networkConnectionLost)
        let empty = await failure { _ = try await stubs.urlSession.get("http://x.example/empty") }
        #if canImport(Darwin)
        #expect(empty == .networkConnectionLost)
        #else
        #expect(empty == .badServerResponse)
        #endif
        #expect(try await stubs.hits("reset") == 1)
    }

    /// A hang holds the request until its `timeoutInterval`, then URLSession reports `.timedOut`.
    @Test func aHangEndsInATimeout() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        let start = ContinuousClock.now
        let code = await failure { _ = try await stubs.urlSession.get("http://x.example/hang", timeout: 0.5) }
        #expect(code == .timedOut)
        #expect(ContinuousClock.now - start >= .milliseconds(450))
    }

    /// A delay holds the answer that long on the wall clock.
    @Test func aDelayHoldsTheAnswer() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        let start = ContinuousClock.now
        #expect(try await stubs.urlSession.get("http://x.example/slow").status == 200)
        #expect(ContinuousClock.now - start >= .milliseconds(280))
    }

    /// An unmatched request gets the engine's 404 naming the nearest routes, and counts as unmatched.
    @Test func anUnmatchedRequestGetsThe404WithTheNearestRoutes() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        let r = try await stubs.urlSession.get("http://x.example/carts")
        #expect(r.status == 404)
        #expect(r.text.contains("/cart"), "\(r.text)")
        #expect(try await stubs.unmatchedReport().count == 1)
    }

    /// `waitForHits` is held by the engine until the hit comes, with no polling.
    @Test func aHitWaitReturnsWhenTheHitComes() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        async let waited = stubs.waitForHits("empty-cart", count: 1, timeout: .seconds(5))
        try await Task.sleep(for: .milliseconds(100))
        _ = try await stubs.urlSession.get("http://x.example/cart")
        #expect(try await waited == 1)
    }

    /// A URLSession kept past its fixture (a poller that outlives its test) fails, saying so, instead
    /// of reaching the real host, and making a task on it does not crash (an invalidated session would).
    @Test func aClosedFixturesSessionFailsInsteadOfReachingTheNetwork() async throws {
        let stubs = try WeatherStubs.load()
        let configuration = stubs.sessionConfiguration
        let kept = stubs.urlSession
        _ = try await kept.get("http://x.example/cart")
        stubs.close()
        #expect(await failure { _ = try await kept.get("http://x.example/cart") } == .cannotConnectToHost)
        let session = URLSession(configuration: configuration)
        let code = await failure { _ = try await session.get("http://127.0.0.1:9/cart") }
        #expect(code == .cannotConnectToHost)
    }

    /// A runtime stub added through the admin API answers the next request.
    @Test func aRuntimeStubAnswers() async throws {
        let stubs = try WeatherStubs.load()
        defer { stubs.close() }
        _ = try await stubs.addStub(StubRoute(.get("/added"), response: .json(#"{"added":true}"#)))
        #expect(try await stubs.urlSession.get("http://x.example/added").text == #"{"added":true}"#)
    }
}

/// The fixture the test helpers start where no server is linked: the engine without a socket.
@Suite struct WithoutSocketFixtureTests {
    @Test func theFixtureAnswersThroughItsURLSessionAndTearsDown() async throws {
        let folder = try TempStubs(WeatherStubs.files)
        let started = try StubFixture.startWithoutSocket(stubs: folder.url)
        let session = started.control.urlSession
        #expect(try await session.get("http://anything.example/cart").status == 200)
        #expect(try await started.control.hits("empty-cart") == 1)
        await started.teardown()
        let code = await failure { _ = try await URLSession(configuration: started.control.sessionConfiguration).get("http://anything.example/cart") }
        #expect(code == .cannotConnectToHost, "a request after the teardown fails instead of reaching the network")
    }

    @Test func aBrokenFolderSaysEveryProblem() throws {
        let folder = try TempStubs(["stubd.yml": "routes:\n  - request: { paht: /x }\n    response: { status: 200 }\n"])
        #expect {
            _ = try StubFixture.startWithoutSocket(stubs: folder.url)
        } throws: { error in
            "\(error)".contains("stubd.yml:2") && "\(error)".contains("paht")
        }
    }
}
