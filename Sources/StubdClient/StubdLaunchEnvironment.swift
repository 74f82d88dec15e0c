import Foundation

/// Handing a stub server to an app in another process: a UI test (XCUITest launches the app apart
/// from the test), or any child process. The app reads one variable and sends its requests there.
///
/// ```swift
/// // In the UI test: each parallel clone gets its own session, so hits and quotas never mix.
/// let stubd = try await startStubServer(stubs: stubsURL).session(UUID().uuidString)
/// app.launchEnvironment.merge(stubd.launchEnvironment) { _, new in new }
/// app.launch()
///
/// // In the app:
/// let base = ProcessInfo.processInfo.environment[StubdLaunchEnvironment.baseURL]
///     .flatMap(URL.init(string:)) ?? URL(string: "https://api.example.com")!
/// ```
public enum StubdLaunchEnvironment {
    /// The variable the app reads: the base URL its API requests go to. For a session it carries
    /// the `/__s/ID` prefix, so every request the app makes lands in that session.
    public static let baseURL = "STUBD_BASE_URL"
    /// For an app whose base URL is fixed: stubd as its HTTP(S) proxy (`http://127.0.0.1:8080`),
    /// for `HTTP_PROXY`/`HTTPS_PROXY` or `StubControl.urlSessionConfiguration`'s proxy dictionary.
    public static let proxy = "STUBD_PROXY"
    /// The session the app's requests belong to (send it as `X-Stubd-Session`, or as the proxy's
    /// user name), absent for the default session.
    public static let session = "STUBD_SESSION"
}
