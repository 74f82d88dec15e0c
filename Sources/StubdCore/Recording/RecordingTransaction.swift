import StubdEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The files one recorded exchange writes, and how to take them back: a write that fails, or whose
/// route does not check out, leaves the folder as it was (no file, no temporary file, no new folder).
struct RecordingTransaction {
    let root: URL
    /// Each file touched, with what it held before (nil: it did not exist), in the order touched.
    private var previous: [(relative: String, data: Data?)] = []
    /// Folders this transaction made, outermost first.
    private var createdDirectories: [String] = []

    init(root: URL) { self.root = root.standardizedFileURL }

    /// Written to a temporary name and renamed, so a watcher never reads half a file.
    mutating func write(_ data: Data, to relative: String) throws(RecorderError) {
        let url = try inside(relative)
        try makeDirectories(url.deletingLastPathComponent().path)
        remember(relative, url)
        let temp = url.deletingLastPathComponent().appendingPathComponent(".stubd-record-\(UUID().uuidString)")
        do { try data.write(to: temp) } catch {
            unlink(temp.path)
            throw RecorderError("cannot write \(relative): \(error.localizedDescription)")
        }
        if rename(temp.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temp.path)
            throw RecorderError("cannot write \(relative): \(reason)")
        }
    }

    mutating func remove(_ relative: String) {
        guard let url = try? inside(relative) else { return }
        remember(relative, url)
        unlink(url.path)
    }

    /// Puts back every file as it was and removes the folders this transaction made (if empty).
    mutating func rollback() {
        for (relative, data) in previous.reversed() {
            let url = root.appendingPathComponent(relative)
            if let data {
                let temp = url.deletingLastPathComponent().appendingPathComponent(".stubd-record-\(UUID().uuidString)")
                if (try? data.write(to: temp)) == nil || rename(temp.path, url.path) != 0 { unlink(temp.path) }
            } else {
                unlink(url.path)
            }
        }
        for directory in createdDirectories.reversed() { rmdir(directory) }
        previous = []
        createdDirectories = []
    }

    /// Names come from requests: whatever they hold, nothing lands outside the folder.
    private func inside(_ relative: String) throws(RecorderError) -> URL {
        let url = root.appendingPathComponent(relative).standardizedFileURL
        guard url.path.hasPrefix(root.path + "/") else { throw RecorderError("\(relative) would be outside \(root.path)") }
        return url
    }

    private mutating func remember(_ relative: String, _ url: URL) {
        guard !previous.contains(where: { $0.relative == relative }) else { return }
        previous.append((relative, FileManager.default.contents(atPath: url.path)))
    }

    private mutating func makeDirectories(_ path: String) throws(RecorderError) {
        var missing: [String] = []
        var directory = path
        while directory.count > root.path.count, !FileManager.default.fileExists(atPath: directory) {
            missing.append(directory)
            directory = (directory as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() {
            guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
                let reason = String(cString: strerror(errno))
                throw RecorderError("cannot create \(directory.dropFirst(root.path.count + 1)): \(reason)")
            }
            createdDirectories.append(directory)
        }
    }
}
