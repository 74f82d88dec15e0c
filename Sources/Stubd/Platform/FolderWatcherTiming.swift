enum FolderWatcherTiming {
    /// A reload happens at least this often while changes keep coming.
    static let longestWaitNanoseconds: UInt64 = 1_000_000_000
}
