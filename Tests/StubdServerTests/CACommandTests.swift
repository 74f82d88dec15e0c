import Foundation
import StubdTestSupport
import Testing

/// `stubd ca` and `stubd serve --tls`, run as a user would, with a CA folder of the test's own.
@Suite struct CACommandTests {
    @Test func caPathMakesTheCAOnFirstUseAndExportAndRenewWorkOnIt() throws {
        let dir = HTTPSTests.caDirectory()
        let path = try run(stubdBinary.path, ["ca", "path", "--ca-dir", dir.path])
        #expect(path.status == 0, "\(path.error)")
        #expect(path.output == dir.appendingPathComponent("ca.pem").path + "\n")
        let exported = try run(stubdBinary.path, ["ca", "export", "--ca-dir", dir.path])
        let onDisk = try String(contentsOf: dir.appendingPathComponent("ca.pem"), encoding: .utf8)
        #expect(exported.output == onDisk && onDisk.hasPrefix("-----BEGIN CERTIFICATE-----"), "\(exported.output)")
        #expect(try run(stubdBinary.path, ["ca", "export", "--ca-dir", dir.path]).output == onDisk, "the same CA the second time")
        let renewed = try run(stubdBinary.path, ["ca", "renew", "--ca-dir", dir.path])
        #expect(renewed.status == 0, "\(renewed.error)")
        #expect(try String(contentsOf: dir.appendingPathComponent("ca.pem"), encoding: .utf8) != onDisk)
    }

    #if !os(macOS)
    @Test func caTrustSaysSimulatorsAreMacOnlyAndWhatToDoHere() throws {
        let r = try run(stubdBinary.path, ["ca", "trust", "--simulator", "booted", "--ca-dir", HTTPSTests.caDirectory().path])
        #expect(r.status == 1)
        #expect(r.error.contains("simulators exist on macOS only") && r.error.contains("REQUESTS_CA_BUNDLE"), "\(r.error)")
    }
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
