import Foundation
import Testing

/// The `stubd` binary, run as a user would.
@Suite struct CLITests {
    @Test func checkPrintsTheRouteTable() throws {
        let r = try run(stubdBinary.path, ["check", "--stubs", exampleStubs.path])
        #expect(r.status == 0)
        #expect(r.output.contains("GET /api/{key}/conditions/q/CA/San_Francisco.json"))
        #expect(r.output.contains("wunderground"))
    }

    @Test func checkListsEveryProblemAndExits1() throws {
        let stubs = try TempStubs(["bad.json": "{\n  \"a\": 1,\n}\n", "stubd.yml": "routes:\n  - { request: { path: /x }, respose: {} }\n"])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(r.status == 1)
        #expect(r.error.contains("2 problems"))
        #expect(r.error.contains("bad.json:3:1: invalid JSON: trailing comma before '}'"))
        #expect(r.error.contains("stubd.yml:2:"))
        #expect(r.error.contains("did you mean 'response'?"))
    }

    @Test func serveRefusesABrokenFolder() throws {
        let stubs = try TempStubs(["bad.json": "{"])
        let r = try run(stubdBinary.path, ["serve", "--stubs", stubs.url.path, "--port", "0"])
        #expect(r.status == 1)
        #expect(r.error.contains("bad.json:1:2"))
    }

    @Test func serveNamesABadHost() throws {
        let r = try run(stubdBinary.path, ["serve", "--stubs", exampleStubs.path, "--host", "203.0.113.9", "--port", "0"])
        #expect(r.status == 1)
        #expect(r.error.contains("203.0.113.9 is not an address of this machine"))
    }

    /// The first stdout line carries the URL; SIGTERM with a delayed answer in flight exits 0 within a second.
    @Test func serveAnnouncesItsURLAndStopsCleanlyOnSIGTERM() async throws {
        let stubs = try TempStubs(["ok.json": "{}", "stubd.yml": "routes:\n  - { request: { path: /slow }, response: { status: 200, delay: 5s } }\n"])
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = ["serve", "--stubs", stubs.url.path, "--port", "0", "--log-format", "json"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let firstLine = readLine(out.fileHandleForReading)
        #expect(firstLine.hasPrefix("stubd listening on http://127.0.0.1:"))
        #expect(firstLine.hasSuffix("(2 routes from \(stubs.url.path))"))
        let url = String(firstLine.split(separator: " ")[3])
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", url + "/ok.json"]).output == "200")
        let slow = Task.detached { try? curl(["-o", "/dev/null", "-w", "%{http_code}", url + "/slow"]) }
        _ = try await eventually(within: 2) { try curl(["\(url)/__stubd/hits?route=GET%20/slow"]).output.contains("\"hits\":1") }
        let signalled = Date()
        process.terminate()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(signalled) < bound(1))
        #expect(process.terminationStatus == 0)
        #expect(await slow.value?.output == "200", "the delayed answer was sent before exit")
        let log = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let requestLine = try #require(log.split(separator: "\n").first { $0.contains("/ok.json") })
        let json = try JSONSerialization.jsonObject(with: Data(requestLine.utf8)) as? [String: String]
        #expect(json?["status"] == "200")
        #expect(json?["route"] == "GET /ok.json")
    }

    @Test func environmentVariablesStandInForFlags() throws {
        var env = ProcessInfo.processInfo.environment
        env["STUBD_STUBS"] = exampleStubs.path
        let r = try run(stubdBinary.path, ["routes"], environment: env)
        #expect(r.status == 0)
        #expect(r.output.contains("london"))
    }

    private func readLine(_ handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while let byte = try? handle.read(upToCount: 1), let b = byte.first, b != UInt8(ascii: "\n") { bytes.append(b) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
