#if os(Linux)
import Glibc
import Foundation
import Synchronization

/// The folder watcher on Linux: inotify, no polling. Every directory gets a watch (inotify is not
/// recursive), renewed after each change so new folders are watched too.
final class InotifyWatcher: FolderWatcher, Sendable {
    private let root: String
    private let fd: Int32
    private let stopping = Atomic<Bool>(false)
    private let onChange: @Sendable () -> Void
    private let quietPeriodMilliseconds: Int32

    init?(root: URL, quietPeriodMilliseconds: Int32, onChange: @escaping @Sendable () -> Void) {
        self.root = root.standardizedFileURL.path
        self.onChange = onChange
        self.quietPeriodMilliseconds = quietPeriodMilliseconds
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        addWatches()
        NamedThread.start("stubd-watch") { [self] in run() }
    }

    func stop() { stopping.store(true, ordering: .relaxed) }

    private func addWatches() {
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF)
        var stack = [root]
        var seen = Set<String>()
        while let dir = stack.popLast() {
            guard seen.insert(dir).inserted, seen.count < 100_000 else { continue }
            inotify_add_watch(fd, dir, mask)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for name in names where !name.hasPrefix(".") {
                var isDir: ObjCBool = false
                let path = dir + "/" + name
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue { stack.append(path) }
            }
        }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while !stopping.load(ordering: .relaxed) {
            guard poll(&pollfd, 1, 200) > 0 else { continue }
            drain(&buffer)
            // Wait for the burst of events to end, then reload once; but never longer than
            // `longestWait` from the first change: a file written 20 times a second would otherwise
            // starve the quiet period and no reload would happen at all.
            let firstChange = DispatchTime.now().uptimeNanoseconds
            while DispatchTime.now().uptimeNanoseconds - firstChange < FolderWatcherTiming.longestWaitNanoseconds,
                  poll(&pollfd, 1, quietPeriodMilliseconds) > 0, !stopping.load(ordering: .relaxed) { drain(&buffer) }
            if stopping.load(ordering: .relaxed) { break }
            addWatches()
            onChange()
        }
        close(fd)
    }

    private func drain(_ buffer: inout [UInt8]) {
        while read(fd, &buffer, buffer.count) > 0 {}
    }
}
#endif
