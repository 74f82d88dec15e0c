public import Foundation

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

extension PythonUpstream {
    /// An HTTP/1.1 upstream on a free loopback port whose `do_GET(self)` is `doGET` (Python lines,
    /// written from the left margin): the "real API" of the forwarding suites.
    public convenience init(doGET: String) throws {
        try self.init(script: """
            import http.server
            class H(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def log_message(self, *a): pass
                def do_GET(self):
            \(doGET.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n"))
            s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
            print(s.server_address[1], flush=True)
            s.serve_forever()
            """)
    }
}
