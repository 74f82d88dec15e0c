import Foundation

/// Calls back when anything under the Stubs folder changes, once per burst of changes (an
/// editor's save-rename-chmod dance is one reload). One of two per platform: inotify on Linux,
/// polling elsewhere (see `PollingWatcher`).
protocol FolderWatcher: Sendable {
    func stop()
}

/// The watcher this platform has. Nil when the folder cannot be watched.
func makeFolderWatcher(root: URL, quietPeriodMilliseconds: Int32 = 60,
                       onChange: @escaping @Sendable () -> Void) -> (any FolderWatcher)? {
    #if os(Linux)
    return InotifyWatcher(root: root, quietPeriodMilliseconds: quietPeriodMilliseconds, onChange: onChange)
    #else
    return PollingWatcher(root: root, quietPeriodMilliseconds: quietPeriodMilliseconds, onChange: onChange)
    #endif
}
