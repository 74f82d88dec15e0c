import Foundation

/// A Python program serving on 127.0.0.1 for a test, run as `testPython -c SCRIPT ARGUMENTS…`. The
/// script prints the port it bound as its first line. Killed when released.
public final class PythonUpstream {
    public let process = Process()
    public let port: Int
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    public init(script: String, arguments: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: testPython) else { throw MissingTool(testPython) }
        process.executableURL = URL(fileURLWithPath: testPython)
        process.arguments = ["-c", script] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = out.fileHandleForReading.firstLine()
        port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    // SIGKILL: a child inherits an ignored SIGTERM, and Python keeps it ignored.
    deinit { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
}
