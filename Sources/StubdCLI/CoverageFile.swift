#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StubdProtocol

/// `serve --coverage-out FILE`: the file the whole server's coverage is written to when it stops.
/// Written in place, at that path and nowhere else: no temporary file beside it, no directory made,
/// and no symlink followed (a link could send the report outside where the user pointed).
struct CoverageFile {
    let path: String

    /// Why the path cannot take the report, found at start rather than after the run it reports.
    func problem() -> String? {
        let url = URL(fileURLWithPath: path)
        let parent = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "--coverage-out \(path): the folder \(parent) does not exist; create it first (stubd makes no folders)"
        }
        if let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType {
            if type == .typeDirectory { return "--coverage-out \(path) is a folder; give a file path such as \(path)/coverage.json" }
            if type == .typeSymbolicLink { return "--coverage-out \(path) is a symbolic link; give the file's own path" }
        }
        guard access(parent, W_OK) == 0 else { return "--coverage-out \(path): the folder \(parent) is not writable" }
        return nil
    }

    /// Writes the report; the error says what went wrong, for the log.
    func write(_ report: CoverageReport) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "cannot open \(path): \(String(cString: strerror(errno)))" }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do { try handle.write(contentsOf: Data((CoverageOutput.json(report) + "\n").utf8)) } catch {
            return "cannot write \(path): \(error.localizedDescription)"
        }
        return nil
    }
}
