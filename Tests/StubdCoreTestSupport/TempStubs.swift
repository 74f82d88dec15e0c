public import Foundation

/// A throwaway Stubs directory built from a dictionary of relative path → contents.
public struct TempStubs: Sendable {
    public let url: URL

    public init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, contents) in files { try write(path, contents) }
    }

    public func write(_ path: String, _ contents: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Write then rename, as editors do, so a reload never reads half a file.
        let temp = file.deletingLastPathComponent().appendingPathComponent(".tmp-\(UUID().uuidString)")
        try Data(contents.utf8).write(to: temp)
        if rename(temp.path, file.path) != 0 { throw CocoaError(.fileWriteUnknown) }
    }
}
