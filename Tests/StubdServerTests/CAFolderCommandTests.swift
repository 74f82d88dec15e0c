import Foundation
import StubdTestSupport
import Testing

/// `stubd ca path|export|renew|trust` on a CA folder of the test's own, run as a user would; no
/// server started. Split from CACommandTests, which keeps `stubd serve --tls`.
@Suite struct CAFolderCommandTests {
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

    @Test func caTrustSaysSimulatorsAreMacOnlyAndWhatToDoHere() throws {
        let r = try run(stubdBinary.path, ["ca", "trust", "--simulator", "booted", "--ca-dir", HTTPSTests.caDirectory().path])
        #expect(r.status == 1)
        #expect(r.error.contains("simulators exist on macOS only") && r.error.contains("REQUESTS_CA_BUNDLE"), "\(r.error)")
    }
}
