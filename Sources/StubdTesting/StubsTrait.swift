public import Foundation
public import StubdClient
public import Testing

/// `@Test(.stubs(folder))`, or `@Suite(.stubs(folder))` for each of a suite's tests: the test runs
/// with a stub server of its own, started as `withStubServer` starts one (the engine without a
/// socket, an in-process server where one is linked, or a session on the daemon at `STUBD_URL`) and
/// torn down after it. The test reads it from `StubsTrait.current`.
///
/// ```swift
/// @Test(.stubs(stubsFolder)) func sanFrancisco() async throws {
///     let server = try #require(StubsTrait.current)
///     let service = WeatherService(baseURL: server.baseURL, session: server.urlSession)
///     …
/// }
/// ```
///
/// Each test case gets its own: tests that Swift Testing runs in parallel see none of each other's
/// hits, quotas, clock or state.
public struct StubsTrait: TestTrait, SuiteTrait, TestScoping {
    /// The Stubs folder each test is answered from.
    public let folder: URL

    /// The stub server of the test running in this task, nil outside a test with this trait.
    @TaskLocal public static var current: (any StubControl)?

    /// On a suite, each of its tests gets its own server.
    public var isRecursive: Bool { true }

    /// Each test case gets a server of its own: none for a suite's own scope, or a parameterized
    /// test's around all its cases.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> StubsTrait? {
        testCase == nil ? nil : self
    }

    /// Runs the test case with its server in `current`, then tears the server down, also when it throws.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withStubServer(stubs: folder) { server in
            try await StubsTrait.$current.withValue(server) { try await function() }
        }
    }
}

extension Trait where Self == StubsTrait {
    /// A stub server answering from `folder`, one per test case (`StubsTrait`).
    public static func stubs(_ folder: URL) -> Self { StubsTrait(folder: folder) }
}
