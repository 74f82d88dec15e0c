import Foundation
import Stubd
import StubdClient
import StubdTestSupport
import Testing

/// What an iOS test bundle gets without `STUBD_URL` (it cannot run the server in-process): one
/// error that says what to run on the Mac and what to set in the scheme.
@Suite struct RemoteOnlyStartTests {
    @Test func withoutSTUBD_URLTheErrorSaysWhatToRunAndWhatToSet() async throws {
        do {
            _ = try await StubFixture.startRemoteOnly(stubs: exampleStubs, environment: [:])
            Issue.record("started without STUBD_URL")
        } catch {
            let text = "\(error)"
            #expect(text.contains("stubd serve --stubs \(exampleStubs.path)"), "\(text)")
            #expect(text.contains("STUBD_URL=http://127.0.0.1:8080"), "\(text)")
            #expect(text.contains("Edit Scheme"), "\(text)")
        }
    }
}
