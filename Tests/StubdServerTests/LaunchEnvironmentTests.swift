import Foundation
import Stubd
import StubdClient
import StubdTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A UI test hands the app its stub server through the launch environment (issue 15). Here the
/// "app" is a real separate process (a shell running curl, as XCUITest runs the app apart from the
/// test), and two clones with their own sessions must not see each other's hits.
@Suite struct LaunchEnvironmentTests {
    static let app = #"curl -s -o /dev/null -w '%{http_code}' "$STUBD_BASE_URL/api/KEY/conditions/q/CA/San_Francisco.json""#

    @Test func anAppLaunchedWithTheEnvironmentLandsInItsOwnSession() async throws {
        try await withServer(exampleStubs) { server in
            let first = server.session("clone-1"), second = server.session("clone-2")
            var environment = ProcessInfo.processInfo.environment
            environment.merge(first.launchEnvironment) { _, new in new }
            let launched = try run("/bin/sh", ["-c", Self.app], environment: environment)
            #expect(launched.output == "200", "\(launched.output) \(launched.error)")
            let route = "GET /api/{key}/conditions/q/CA/{city}.json"
            #expect(try await first.hits(route) == 1)
            #expect(try await second.hits(route) == 0, "a parallel clone's session saw the other's request")
            #expect(try await server.hits(route) == 0, "the default session saw a session's request")
            #expect(first.launchEnvironment[StubdLaunchEnvironment.baseURL]?.hasSuffix("/__s/clone-1") == true)
        }
    }

    /// An app whose base URL is fixed (`http://api.openweathermap.org`): it gets stubd as its proxy
    /// and its session from the environment, and its request lands in that session (issue 28).
    static let fixedHostApp = #"curl -s -o /dev/null -w '%{http_code}' -x "$STUBD_PROXY" -H "X-Stubd-Session: $STUBD_SESSION" 'http://api.openweathermap.org/data/2.5/weather?q=London&appid=k'"#

    @Test func anAppWithAFixedHostGetsTheProxyAndItsSessionFromTheEnvironment() async throws {
        var options = StubServer.Options()
        options.asHosts = ["api.openweathermap.org"]
        try await withServer(exampleStubs, options: options) { server in
            let clone = server.session("clone-3")
            #expect(clone.launchEnvironment[StubdLaunchEnvironment.proxy] == "http://127.0.0.1:\(server.port)")
            #expect(clone.launchEnvironment[StubdLaunchEnvironment.session] == "clone-3")
            #expect(server.launchEnvironment[StubdLaunchEnvironment.session] == nil)
            var environment = ProcessInfo.processInfo.environment
            environment.merge(clone.launchEnvironment) { _, new in new }
            let launched = try run("/bin/sh", ["-c", Self.fixedHostApp], environment: environment)
            #expect(launched.output == "200", "\(launched.output) \(launched.error)")
            let hits = try await clone.allHits().values.reduce(0, +)
            #expect(hits == 1, "the request did not land in the clone's session")
            #expect(try await server.allHits().values.reduce(0, +) == 0)
        }
    }

    /// What Linux can check of the URLSession configuration: the proxy dictionary and the session
    /// header (Linux's Foundation ignores the proxy dictionary; Apple's honours it, unverified here).
    @Test func theURLSessionConfigurationRoutesThroughStubdWithTheSession() async throws {
        try await withServer(exampleStubs) { server in
            let configuration = server.session("s1").urlSessionConfiguration()
            let proxy = configuration.connectionProxyDictionary ?? [:]
            #expect(proxy["HTTPProxy"] as? String == "127.0.0.1" && proxy["HTTPSProxy"] as? String == "127.0.0.1")
            #expect(proxy["HTTPPort"] as? Int == Int(server.port) && proxy["HTTPSPort"] as? Int == Int(server.port))
            #expect(proxy["HTTPEnable"] as? Int == 1 && proxy["HTTPSEnable"] as? Int == 1)
            #expect(configuration.httpAdditionalHeaders?["X-Stubd-Session"] as? String == "s1")
            #expect(server.urlSessionConfiguration().httpAdditionalHeaders?["X-Stubd-Session"] == nil)
        }
    }
}
