import Foundation
import StubdProtocol
import Synchronization

/// The folder watcher where there is no inotify (macOS, and any other platform): it looks at the
/// tree's names, sizes and modification times every `interval` and reloads when they change. On a
/// Mac that is cheap next to an editor's save (a 10,000-file folder is a few milliseconds of stat
/// calls). It keeps the inotify watcher's behaviour: one reload after a burst of changes has been
/// quiet for the quiet period, and at most `longestWait` after the first change.
final class PollingWatcher: FolderWatcher, Sendable {
    private let root: URL
    private let stopping = Atomic<Bool>(false)
    private let onChange: @Sendable () -> Void
    private let quietPeriodMilliseconds: Int32
    private let intervalMilliseconds: Int32

    init(root: URL, quietPeriodMilliseconds: Int32, intervalMilliseconds: Int32 = 250,
         onChange: @escaping @Sendable () -> Void) {
        self.root = root.standardizedFileURL
        self.onChange = onChange
        self.quietPeriodMilliseconds = quietPeriodMilliseconds
        self.intervalMilliseconds = intervalMilliseconds
        let first = PollingWatcher.signature(of: self.root)
        NamedThread.start("stubd-watch") { [self] in run(from: first) }
    }

    func stop() { stopping.store(true, ordering: .relaxed) }

    private func run(from first: UInt64) {
        var last = first
        while !stopping.load(ordering: .relaxed) {
            usleep(useconds_t(intervalMilliseconds) * 1000)
            var now = PollingWatcher.signature(of: root)
            guard now != last else { continue }
            let firstChange = DispatchTime.now().uptimeNanoseconds
            // Quiet means two looks a quiet period apart that agree.
            while DispatchTime.now().uptimeNanoseconds - firstChange < FolderWatcherTiming.longestWaitNanoseconds,
                  !stopping.load(ordering: .relaxed) {
                usleep(useconds_t(quietPeriodMilliseconds) * 1000)
                let again = PollingWatcher.signature(of: root)
                if again == now { break }
                now = again
            }
            if stopping.load(ordering: .relaxed) { break }
            last = now
            onChange()
        }
    }

    /// Every name under `root` (dot-files left out, as stubd never serves them) with its size and
    /// modification time, folded into one number: any edit, addition, removal or rename changes it.
    static func signature(of root: URL) -> UInt64 {
        var hash = FNV1a()
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isDirectoryKey]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys,
                                                          options: [.skipsHiddenFiles]) else { return 0 }
        var entries: [(String, UInt64, UInt64)] = []
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: Set(keys))
            let size = UInt64(values?.fileSize ?? 0)
            let modified = UInt64(max(0, (values?.contentModificationDate?.timeIntervalSince1970 ?? 0) * 1e9))
            entries.append((url.path, size, modified))
        }
        // The walker's order is not promised; the signature must not depend on it.
        entries.sort { $0.0 < $1.0 }
        for (path, size, modified) in entries {
            hash.add(path.utf8)
            hash.add(size)
            hash.add(modified)
        }
        return hash.value
    }
}
