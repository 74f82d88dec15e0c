import Foundation
@testable import Stubd
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing

/// The watcher macOS uses (no inotify there), run here on Linux: it must see every kind of change,
/// and turn a burst of changes into one reload, as the inotify watcher does.
@Suite struct PollingWatcherTests {
    @Test func itSeesEditsAdditionsAndRemovalsAndCoalescesABurst() async throws {
        let stubs = try TempStubs(["a.json": #"{"a": 1}"#])
        let reloads = Locked(0)
        let watcher = PollingWatcher(root: stubs.url, quietPeriodMilliseconds: 60, intervalMilliseconds: 40) {
            reloads.withLock { $0 += 1 }
        }
        defer { watcher.stop() }
        func count() -> Int { reloads.withLock { $0 } }

        try await Task.sleep(for: .milliseconds(200))
        #expect(count() == 0, "an untouched folder reloaded")

        try stubs.write("a.json", #"{"a": 2}"#)  // same size: only the modification time and bytes differ
        #expect(await eventually(within: bound(3)) { count() == 1 }, "an edit was missed")

        for i in 0..<5 { try stubs.write("burst-\(i).json", "{}") }
        #expect(await eventually(within: bound(3)) { count() >= 2 }, "new files were missed")
        try await Task.sleep(for: .milliseconds(300))
        #expect(count() == 2, "a burst of five writes made \(count() - 1) reloads")

        try FileManager.default.removeItem(at: stubs.url.appendingPathComponent("burst-0.json"))
        #expect(await eventually(within: bound(3)) { count() == 3 }, "a removal was missed")

        try stubs.write(".swap", "editor scratch")
        try await Task.sleep(for: .milliseconds(300))
        #expect(count() == 3, "a dot-file (never served) caused a reload")
    }
}
