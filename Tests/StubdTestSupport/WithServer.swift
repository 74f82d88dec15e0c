public import Foundation
public import Stubd
import StubdClient

/// Starts an in-process `StubServer` with `options` for the body and always stops it: the tests'
/// way to `withStubServer` (StubdTesting), which takes no options and may use `STUBD_URL`.
public func withServer<R>(_ stubs: URL, options: StubServer.Options = .init(),
                          _ body: (StubServer) async throws -> R) async throws -> R {
    let server = try await StubServer.start(stubs: stubs, options: options)
    return try await StubFixture.Started(server).run { _ in try await body(server) }
}
