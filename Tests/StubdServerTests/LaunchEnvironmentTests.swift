import Foundation
import Stubd
import StubdClient
import StubdTestSupport
import Testing

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
}
