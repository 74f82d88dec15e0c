import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A real `stubd serve --spec SPEC --validate requests=MODE` as a child process, serving the stubs
/// `stubd openapi import SPEC` writes into a folder of its own: what a user of a generated client
/// runs. Its output is read all along (a full pipe would block it) and shown when something fails.
final class StubdProcess: @unchecked Sendable {
    let baseURL: URL
    private let process = Process()
    private let folder: URL
    private let output = Output()

    /// The binary the root package's `swift build` made; $STUBD_BINARY names another.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["STUBD_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // Tests/GeneratedClientTests/StubdProcess.swift → the repository's root, four folders up.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(".build/debug/stubd")
    }()

    /// Everything stubd printed, appended from the thread that reads the pipe.
    private final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    /// `validate`: `strict`, `report` or `off` (`--validate requests=…`); `serveArguments` are added
    /// to `stubd serve`'s (`--formats assert`).
    init(spec: URL, validate: String = "strict", serveArguments: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw Failure("no stubd at \(Self.binary.path): run `swift build --product stubd` at the repository's root first, or set STUBD_BINARY")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("generated-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stubs = folder.appendingPathComponent("Stubs")
        let (status, printed) = try Self.run(["openapi", "import", spec.path, "--stubs", stubs.path])
        guard status == 0 else { throw Failure("stubd openapi import \(spec.lastPathComponent) exited \(status):\n\(printed)") }

        process.executableURL = Self.binary
        process.arguments = ["serve", "--port", "0", "--no-watch", "--stubs", stubs.path,
                             "--spec", spec.path, "--validate", "requests=\(validate)"] + serveArguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Blocking reads on a thread of its own, not `readabilityHandler`: tearing that handler's
        // libdispatch read source down while another test sets its own up corrupts libdispatch's
        // epoll bookkeeping on Linux, and crashed this suite with SIGSEGV in
        // `_dispatch_event_loop_drain` in CI (swift-corelibs-libdispatch#949).
        let reader = Thread { [output, handle = pipe.fileHandleForReading] in
            while case let piece = handle.availableData, !piece.isEmpty { output.append(piece) }
        }
        reader.name = "stubd output"
        reader.start()
        // "stubd listening on http://127.0.0.1:PORT (…)", after any notices about the spec.
        let deadline = Date().addingTimeInterval(20)
        var address: String?
        while address == nil {
            address = output.text.split(separator: "\n").first { $0.hasPrefix("stubd listening on ") }
                .flatMap { $0.split(separator: " ").first { $0.hasPrefix("http://") } }.map(String.init)
            if address != nil { break }
            guard process.isRunning, Date() < deadline else {
                let why = process.isRunning ? "no address in 20 s" : "exited \(process.terminationStatus)"
                if process.isRunning { process.terminate(); process.waitUntilExit() }
                try? FileManager.default.removeItem(at: folder)
                throw Failure("stubd serve did not start (\(why)):\n\(output.text)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        baseURL = URL(string: address!)!
    }

    /// What stubd has printed so far: its log lines, one per request.
    var log: String { output.text }

    /// `POST /__stubd/stubs` with a route in the manifest's shape: the status and the body.
    func addStub(_ route: String) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: baseURL.appendingPathComponent("__stubd/stubs"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(route.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    /// Runs stubd to its end: its exit status and everything it printed.
    private static func run(_ arguments: [String]) throws -> (Int32, String) {
        let child = Process()
        child.executableURL = binary
        child.arguments = arguments
        let pipe = Pipe()
        child.standardOutput = pipe
        child.standardError = pipe
        try child.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        return (child.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
