public import Foundation

/// A Python upstream whose answers follow a mode kept in a file, "v1" at first: the script reads the
/// file (its first argument) on every request and `set` writes another, so a test changes the API
/// under a folder recorded from it (DriftTests, StreamRecordingTests, WebSocketRecordingTests).
public final class SwitchableUpstream {
    public let modeFile: URL
    public let upstream: PythonUpstream
    public var url: URL { upstream.url }

    /// Starts `script` with the mode file and then `arguments`.
    public init(script: String, arguments: [String] = []) throws {
        modeFile = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-mode-\(UUID().uuidString)")
        try Data("v1".utf8).write(to: modeFile)
        upstream = try PythonUpstream(script: script, arguments: [modeFile.path] + arguments)
    }

    public func set(_ mode: String) throws { try Data(mode.utf8).write(to: modeFile) }
}
