import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import Testing

/// A throwaway Stubs directory.
struct TempStubs {
    let url: URL

    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, contents) in files { try write(path, contents) }
    }

    func write(_ path: String, _ contents: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Write then rename, as editors do, so a reload never reads half a file.
        let temp = file.deletingLastPathComponent().appendingPathComponent(".tmp-\(UUID().uuidString)")
        try Data(contents.utf8).write(to: temp)
        if rename(temp.path, file.path) != 0 { throw CocoaError(.fileWriteUnknown) }
    }
}

/// The repository's example Stubs folder.
let exampleStubs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Stubs")

/// The `stubd` binary built beside the tests (`swift build` builds it; the test script runs that first).
let stubdBinary: URL = {
    let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [dir, dir.deletingLastPathComponent(), dir.deletingLastPathComponent().deletingLastPathComponent()] {
        let url = candidate.appendingPathComponent("stubd")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    let built = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/stubd")
    return built
}()

struct HTTPResult {
    let status: Int
    let headers: [String: String]
    let body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
}

let urlSession: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 256
    configuration.timeoutIntervalForRequest = 10
    return URLSession(configuration: configuration)
}()

/// One request through URLSession (libcurl underneath on Linux).
func http(_ url: URL, method: String = "GET", body: String? = nil, headers: [String: String] = [:],
          session: URLSession = urlSession) async throws -> HTTPResult {
    var request = URLRequest(url: url)
    request.httpMethod = method
    if let body { request.httpBody = Data(body.utf8) }
    // The admin API takes writes only as JSON; a test of that refusal sets its own Content-Type.
    if url.path.contains("/__stubd/"), ["POST", "PUT", "PATCH"].contains(method) {
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
    let (data, response) = try await session.data(for: request)
    let http = response as! HTTPURLResponse
    var fields: [String: String] = [:]
    for (k, v) in http.allHeaderFields { fields["\(k)"] = "\(v)" }
    return HTTPResult(status: http.statusCode, headers: fields, body: data)
}

func get(_ base: URL, _ path: String, headers: [String: String] = [:]) async throws -> HTTPResult {
    try await http(URL(string: base.absoluteString + path)!, headers: headers)
}

/// Runs a program to completion; returns its exit code and standard output.
@discardableResult
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// curl, for what URLSession hides (raw paths, exit codes of broken transfers).
func curl(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let r = try run("/usr/bin/curl", ["-s", "--max-time", "5"] + arguments)
    return (r.status, r.output)
}

/// A new TCP connection to 127.0.0.1:`port`, or nil.
func connectLoopback(port: UInt16) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = port.bigEndian
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    guard connected == 0 else { close(fd); return nil }
    return fd
}

/// Sends raw bytes on a new TCP connection and returns what comes back before the server closes or `timeout` passes.
func rawExchange(port: UInt16, _ bytes: [UInt8], timeout: Double = 2) -> String {
    guard let fd = connectLoopback(port: port) else { return "<connect failed>" }
    defer { close(fd) }
    var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var received = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { break }
        received += buffer[0..<n]
    }
    return String(decoding: received, as: UTF8.self)
}

/// Starts `server` for the body and always stops it.
func withServer<R>(_ stubs: URL, options: StubServer.Options = .init(), _ body: (StubServer) async throws -> R) async throws -> R {
    let server = try await StubServer.start(stubs: stubs, options: options)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Waits until `condition` holds, checking every 20 ms, for at most `seconds` (for file-system
/// events, which have no completion to wait on).
func eventually(within seconds: Double = 3, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

/// A bound on time or memory for a test, stretched under a sanitizer (scripts/test sets
/// STUBD_SANITIZER): ThreadSanitizer makes every access slower and shadows all memory, and these
/// bounds are about behaviour (nothing held, nothing leaked), not about speed or size.
func bound(_ seconds: Double) -> Double {
    ProcessInfo.processInfo.environment["STUBD_SANITIZER"] == nil ? seconds : seconds * 5
}
