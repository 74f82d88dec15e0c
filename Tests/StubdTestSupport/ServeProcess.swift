public import Foundation

/// `stubd serve` as a child process, for what only a process of its own shows: its peak memory
/// (`VmHWM`) and its log. Killed when released.
public final class ServeProcess {
    public let process = Process()
    public let baseURL: URL
    private let output = Output()

    /// What it prints, appended from the thread that reads the pipe.
    private final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    /// `environment` is added to this process's own (`http_proxy`, say).
    public init(_ arguments: [String], environment extra: [String: String] = [:]) throws {
        process.executableURL = stubdBinary
        process.arguments = ["serve", "--port", "0", "--no-watch"] + arguments
        var environment = ProcessInfo.processInfo.environment
        // Under AddressSanitizer freed memory waits in a quarantine of 256 MB by default: it would
        // count toward the peak these tests bound, and it is not stubd's.
        environment["ASAN_OPTIONS"] = (environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "") + "quarantine_size_mb=16"
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let first = out.fileHandleForReading.firstLine(startingWith: "stubd listening on", thenDrainInto: { [output] in output.append($0) })
        let text = String(decoding: first, as: UTF8.self)
        // "stubd listening on http://127.0.0.1:PORT (…)"
        let address = text.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init) ?? "http://127.0.0.1:0"
        baseURL = URL(string: address)!
    }

    /// `stubd serve` of a fresh folder holding `files` (relative path → contents, as `TempStubs`).
    public convenience init(serving files: [String: String], _ arguments: [String] = []) throws {
        try self.init(["--stubs", try TempStubs(files).url.path] + arguments)
    }

    public var port: UInt16 { UInt16(baseURL.port ?? 0) }

    /// Everything it has printed so far.
    public var log: String { output.text }

    /// Its peak resident memory so far, in bytes (Linux: VmHWM in /proc/PID/status).
    public var peakResidentBytes: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]) else { return -1 }
        return kilobytes * 1024
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
