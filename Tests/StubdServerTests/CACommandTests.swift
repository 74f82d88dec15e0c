import Foundation
import StubdTestSupport
import Testing

/// `stubd ca` and `stubd serve --tls`, run as a user would, with a CA folder of the test's own.
/// The `ca` subcommands alone, which start no server: CAFolderCommandTests.
@Suite struct CACommandTests {
    #if !os(macOS)
    #endif

    @Test func serveTLSAnswersHTTPSAndTellsWhereTheCAIs() throws {
        let dir = HTTPSTests.caDirectory()
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = ["serve", "--port", "0", "--no-watch", "--tls-port", "0", "--ca-dir", dir.path, "--stubs", exampleStubs.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        var text = ""
        while text.components(separatedBy: "\n").count < 4, let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
            text += String(decoding: byte, as: UTF8.self)
        }
        let lines = text.split(separator: "\n")
        #expect(lines.count >= 3, "\(text)")
        #expect(lines.first?.hasPrefix("stubd listening on http://127.0.0.1:") == true, "\(text)")
        let https = try #require(lines.dropFirst().first { $0.hasPrefix("stubd listening on https://") }, "\(text)")
        #expect(text.contains("stubd CA certificate: \(dir.appendingPathComponent("ca.pem").path)"), "\(text)")
        let url = String(https.split(separator: " ")[3])
        let r = try curl(["--cacert", dir.appendingPathComponent("ca.pem").path, url.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/__stubd/health"])
        #expect(r.output.contains(#""status":"ok""#), "\(r)")
    }

    @Test func tlsAndTLSPortTogetherAreRefusedSayingWhichIsWhich() throws {
        let r = try run(stubdBinary.path, ["serve", "--tls", "--tls-port", "8443", "--ca-dir", HTTPSTests.caDirectory().path])
        #expect(r.status != 0)
        #expect(r.error.contains("--tls makes --port speak HTTPS"), "\(r.error)")
    }
}
