import Foundation
import StubdProtocol

/// The session a fixture took on a daemon (`STUBD_URL`) for one test, and every session handed out
/// through it (`session(_:)`, at any depth): the fixture's teardown resets them all. A named session
/// a test made (`server.session("s1")`) would otherwise keep its hits, quotas and clock on the daemon
/// into the next run (issue 62 item 2: `was 2`, `3`, `4`).
final class FixtureSessions: AdminBackedControl, @unchecked Sendable {
    /// The session this view speaks for.
    let client: StubdClient
    /// Every session handed out from the fixture's, shared by all its views.
    private let handedOut: Locked<[String: StubdClient]>

    init(_ client: StubdClient) {
        self.client = client
        handedOut = Locked([:])
    }

    private init(_ client: StubdClient, sharing handedOut: Locked<[String: StubdClient]>) {
        self.client = client
        self.handedOut = handedOut
    }

    var baseURL: URL { client.baseURL }
    var adminClient: StubdClient { client }

    func session(_ id: String) -> any StubControl {
        let view = client.sessionClient(id)
        handedOut.withLock { $0[view.sessionID] = view }
        return FixtureSessions(view, sharing: handedOut)
    }

    /// Resets the fixture's session and every one handed out from it.
    func resetAll() async {
        for view in handedOut.withLock({ Array($0.values) }) { try? await view.reset() }
        try? await client.reset()
    }
}
