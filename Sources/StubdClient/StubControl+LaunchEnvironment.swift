import Foundation

extension StubControl {
    /// `STUBD_BASE_URL`, `STUBD_PROXY` and (for a session) `STUBD_SESSION`, to merge into
    /// `XCUIApplication.launchEnvironment` (or a `Process`'s environment) before launching the app.
    public var launchEnvironment: [String: String] {
        var environment = [StubdLaunchEnvironment.baseURL: baseURL.absoluteString,
                           StubdLaunchEnvironment.proxy: proxyURL.absoluteString]
        if let sessionID { environment[StubdLaunchEnvironment.session] = sessionID }
        return environment
    }
}
