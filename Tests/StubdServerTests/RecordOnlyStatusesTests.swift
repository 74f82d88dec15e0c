import Foundation
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// Issue 45 item 4: `stubd record --only` keeps a typo'd URL's 404 out of the folder, and
/// `record --help` lists the names the recorder redacts, in paragraphs that wrap cleanly.
/// The help and the docs, which start no server: RecordHelpTests.
@Suite struct RecordOnlyStatusesTests {
    /// `stubd record` as a child process; its first line names where it listens.
    func recording(_ arguments: [String], requests paths: [String]) throws -> (statuses: [String], log: String) {
        try recording(arguments, curling: paths.map { [$0] })
    }

    /// Each request is curl's arguments ending in the path (`["-H", "Authorization: Bearer t", "/me"]`).
    func recording(_ arguments: [String], curling requests: [[String]]) throws -> (statuses: [String], log: String) {
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = ["record", "--port", "0"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        var first: [UInt8] = []
        while let byte = try? out.fileHandleForReading.read(upToCount: 1), let b = byte.first, b != UInt8(ascii: "\n") { first.append(b) }
        // "stubd recording on http://127.0.0.1:PORT/: forwarding to …"
        let line = String(decoding: first, as: UTF8.self)
        let url = line.split(separator: " ").first { $0.hasPrefix("http://") }.map { String($0.dropLast()) }.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        var statuses: [String] = []
        for request in requests {
            statuses.append(try curl(["-s", "-o", "/dev/null", "-w", "%{http_code}"] + request.dropLast() + [url + request.last!]).output)
        }
        process.terminate()
        process.waitUntilExit()
        return (statuses, line + "\n" + String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    static func files(_ folder: URL) -> Set<String> {
        var all: Set<String> = []
        let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        for case let url as URL in e where !url.hasDirectoryPath { all.insert(url.path.replacingOccurrences(of: folder.path, with: "")) }
        return all
    }

    @Test func onlyTwoAndThreeHundredsLeavesAMistypedURLsNotFoundOutOfTheFolder() throws {
        let upstream = try TempStubs([
            "weather.json": #"{"temp": 21}"#,
            "stubd.yml": """
            routes:
              - request: { path: /busy }
                response: { status: 429, headers: { Retry-After: "30" }, json: { message: slow down } }
            """,
        ])
        let api = try ServeProcess(["--stubs", upstream.url.path])
        let folder = try TempStubs([:]).url
        let run = try recording(["--target", api.baseURL.absoluteString, "--stubs", folder.path, "--only", "2xx,3xx"],
                                requests: ["/weather.json", "/wether.json", "/busy"])
        // The client gets every answer as the API gave it; only the 200 is written.
        #expect(run.statuses == ["200", "404", "429"], "\(run.log)")
        #expect(Self.files(folder) == ["/weather.json"], "\(Self.files(folder).sorted())\n\(run.log)")
        #expect(run.log.contains("not recorded: status 404 is not in --only 2xx,3xx"), "\(run.log)")

        // Without --only every status is kept (a 429 is worth replaying), and a recorded 404 says how to avoid it.
        let all = try TempStubs([:]).url
        let everything = try recording(["--target", api.baseURL.absoluteString, "--stubs", all.path],
                                       requests: ["/wether.json", "/busy"])
        #expect(everything.statuses == ["404", "429"])
        #expect(Self.files(all).contains { $0.contains("wether") }, "\(Self.files(all).sorted())")
        #expect(everything.log.contains("--only 2xx,3xx keeps successes only"), "\(everything.log)")
    }

    /// Issue 62 item 4: one call without credentials while recording turned a 200 stub into
    /// `responses: [200, 401]` with no word in the log. The log now warns, naming the route, the
    /// statuses and `--only`; recording again as it says rewrites the route and removes the 401's
    /// body, which no stub names any longer, saying so.
    @Test func aStrayUnauthorizedCallIsWarnedAndRecordingAgainLeavesNoOrphanBody() throws {
        let upstream = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /me, headers: { Authorization: "*" } }
                response: { status: 200, json: { name: ada } }
              - request: { path: /me }
                response: { status: 401, json: { error: unauthorized } }
            """])
        let api = try ServeProcess(["--stubs", upstream.url.path])
        let folder = try TempStubs([:]).url
        let authorized = ["-H", "Authorization: Bearer t0k3n-0123456789", "/me"]
        let run = try recording(["--target", api.baseURL.absoluteString, "--stubs", folder.path], curling: [authorized, ["/me"]])
        #expect(run.statuses == ["200", "401"], "\(run.log)")
        let warning = try #require(run.log.split(separator: "\n").first { $0.contains("WARNING") }, "\(run.log)")
        #expect(warning.contains("WARNING: rec-") && warning.contains(" (GET /me) answered 200 and is now a sequence ending in 401 (responses: [200, 401])"),
                "\(warning)")
        #expect(warning.contains("--only 2xx,3xx --mode all"), "\(warning)")
        let recorded = Self.files(folder)
        let stray = try #require(recorded.first { $0.hasPrefix("/__files/me-get-") && $0.hasSuffix("-2.json") }, "\(recorded.sorted())")

        let again = try recording(["--target", api.baseURL.absoluteString, "--stubs", folder.path, "--only", "2xx,3xx", "--mode", "all"],
                                  curling: [authorized, ["/me"]])
        #expect(again.statuses == ["200", "401"], "\(again.log)")
        #expect(Self.files(folder) == recorded.subtracting([stray]), "\(Self.files(folder).sorted())\n\(again.log)")
        #expect(again.log.contains("removed \(stray.dropFirst()) (no stub names it any longer)"), "\(again.log)")
        #expect(!again.log.contains("WARNING"), "\(again.log)")
        let serve = try ServeProcess(["--stubs", folder.path])
        #expect(try curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", serve.baseURL.absoluteString + "/me"]).output == "200")
        #expect(try curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", serve.baseURL.absoluteString + "/me"]).output == "200",
                "the 401 is gone from the route: the second call gets the 200 too")
    }

    @Test func aWrongOnlyIsRefusedNamingTheItemAndTheForm() throws {
        let folder = try TempStubs([:]).url
        let r = try run(stubdBinary.path, ["record", "--target", "http://127.0.0.1:9", "--stubs", folder.path, "--only", "2xx,ok"])
        #expect(r.status != 0)
        #expect(r.error.contains("'ok' is not a status class (1xx to 5xx) or a status code"), "\(r.error)")
        // serve without --record-missing writes nothing: --only would change nothing, so it is refused.
        let serve = try run(stubdBinary.path, ["serve", "--stubs", folder.path, "--proxy", "http://127.0.0.1:9", "--only", "2xx"])
        #expect(serve.status != 0 && serve.error.contains("--only applies to recording"), "\(serve.error)")
    }
}
