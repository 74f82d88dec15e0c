import Foundation
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing

/// The `stubd` binary, run as a user would.
/// What needs no server (`version`, `check`, `hits` with none running): OfflineCommandTests.
@Suite struct CLITests {
    /// Issue 62 item 7: an `.sse` route is the path clients call, in `stubd check` and in `stubd
    /// hits` against a running server (it was `POST /v1/chat/completions.sse`).
    @Test func checkAndHitsShowAnEventStreamAsThePathClientsCall() throws {
        let stubs = try TempStubs(["v1/chat/completions.POST.sse": "data: {\"delta\": \"hi\"}\n\ndata: [DONE]\n", "weather.json": "{}"])
        let check = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output.split(separator: "\n").contains { $0.hasPrefix("POST /v1/chat/completions ") && $0.hasSuffix("v1/chat/completions.POST.sse") },
                "\(check.output)")
        #expect(check.output.contains("GET /weather.json "), "a .json may be the URL's own: \(check.output)")
        #expect(!check.output.contains("completions.sse "), "\(check.output)")

        let serve = try ServeProcess(["--stubs", stubs.url.path])
        let stream = try curl(["-s", "-N", "-X", "POST", serve.baseURL.absoluteString + "/v1/chat/completions"]).output
        #expect(stream.contains("data: [DONE]"), "\(stream)")
        let hits = try run(stubdBinary.path, ["hits", "--url", serve.baseURL.absoluteString])
        #expect(hits.output.split(separator: "\n").contains { $0.wholeMatch(of: /POST \/v1\/chat\/completions +1/) != nil }, "\(hits.output)")
        #expect(!hits.output.contains(".sse"), "\(hits.output)")
    }

    @Test func serveRefusesABrokenFolder() throws {
        let stubs = try TempStubs(["bad.json": "{"])
        let r = try run(stubdBinary.path, ["serve", "--stubs", stubs.url.path, "--port", "0"])
        #expect(r.status == 1)
        #expect(r.error.contains("bad.json:1:2"))
    }

    @Test func serveCapsARenderedAnswerAtMaxRender() throws {
        let bad = try run(stubdBinary.path, ["serve", "--stubs", exampleStubs.path, "--port", "0", "--max-render", "0"])
        #expect(bad.status != 0)
        #expect(bad.error.contains("--max-render must be at least 1 byte"), "\(bad.error)")
        let stubs = try TempStubs(["echo.tmpl.txt": "{{request.query.say}}{{request.query.say}}"])
        let (process, _, firstLine) = try serveWithPipedOutput(stubs, ["--max-render", "64"])
        defer { process.terminate(); process.waitUntilExit() }
        let url = String(firstLine.split(separator: " ")[3])
        #expect(try curl([url + "/echo.txt?say=" + String(repeating: "a", count: 20)]).output == String(repeating: "a", count: 40))
        let over = try curl(["-w", "%{http_code}", url + "/echo.txt?say=" + String(repeating: "a", count: 40)]).output
        #expect(over.hasSuffix("500"), "\(over)")
        #expect(over.contains("more than 64 bytes, the cap (stubd serve --max-render BYTES"), "\(over)")
    }

    @Test func aStubFileGivenAsTheFolderIsNamedAsSuch() throws {
        let stubs = try TempStubs(["ok.json": "{}"])
        let file = stubs.url.appendingPathComponent("ok.json").path
        let r = try run(stubdBinary.path, ["serve", "--stubs", file, "--port", "0"])
        #expect(r.status == 1)
        #expect(r.error.contains("is a file, not a folder"), "\(r.error)")
        #expect(r.error.contains("--stubs \(stubs.url.path)"), "\(r.error)")
    }

    /// Recording flags that `serve` would ignore are refused, naming the flag and what it needs.
    @Test(arguments: [
        (["--secret", "key=abc123"], "--secret applies to forwarding, and this serve forwards nothing: add --proxy URL"),
        (["--timeout", "5"], "--timeout applies to forwarding"),
        (["--proxy-unknown", "pass", "--secret", "key=abc123"], "--secret applies to forwarding, and this serve forwards only hosts the folder does not serve (--proxy-unknown pass)"),
        (["--upstream-proxy", "http://127.0.0.1:3128"], "--upstream-proxy applies to forwarding"),
        (["--proxy-unknown", "pass", "--upstream-proxy", "socks5://127.0.0.1:1080"], "--upstream-proxy 'socks5://127.0.0.1:1080' is not a proxy URL"),
        (["--proxy", "http://127.0.0.1:9", "--match-header", "X-Tenant"], "--match-header applies to recording, and this serve writes nothing: add --record-missing"),
    ])
    func serveRefusesARecordingFlagItWouldIgnore(flags: [String], message: String) throws {
        let r = try run(stubdBinary.path, ["serve", "--stubs", exampleStubs.path, "--port", "0"] + flags)
        #expect(r.status != 0, "\(r.output)")
        #expect(r.error.contains(message), "\(r.error)")
        #expect(!r.error.contains("abc123"), "a secret's value is never echoed: \(r.error)")
    }

    /// `--proxy-unknown pass` forwards: it takes `--timeout` and `--upstream-proxy` (issue 38).
    /// A flag that takes one of a few words lists them in `--help` (written by its enum, not by hand),
    /// and a word that is not one of them is refused naming the flag and the words it takes.
    @Test(arguments: [
        (["serve"], "--proxy-unknown", ["refuse - a 502 naming the host", "pass - passed through to the real host", "(default: refuse)"],
         ["refuse", "pass"], "maybe"),
        (["serve"], "--validate", ["requests=report - the default: serve the stub", "requests=strict - answer 422", "requests=off - check no request"],
         ["requests=report", "requests=strict", "requests=off"], "requests=warn"),
        (["serve"], "--log-format", ["(values: text, json; default: text)"], ["text", "json"], "xml"),
        (["serve"], "--mode", ["(values: new, all; default: new)"], ["new", "all"], "some"),
        (["drift", "--target", "http://127.0.0.1:9"], "--format", ["(values: text, json; default: text)"], ["text", "json"], "xml"),
        (["record", "--target", "http://127.0.0.1:9"], "--mode", ["(values: new, all; default: new)"], ["new", "all"], "some"),
    ])
    func aChoiceFlagListsItsChoicesInHelpAndRefusesAnotherWord(command: [String], flag: String, shown: [String], choices: [String],
                                                               wrong: String) throws {
        let help = try run(stubdBinary.path, command + ["--help"])
        #expect(help.status == 0, "\(help.error)")
        // Help wraps at the terminal's width: compare with the line breaks folded away.
        let folded = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let section = folded.components(separatedBy: flag + " <").dropFirst().first ?? ""
        for text in shown { #expect(section.contains(text), "\(command) --help: \(flag) does not show '\(text)': \(help.output)") }
        let refused = try run(stubdBinary.path, command + ["--stubs", exampleStubs.path, flag, wrong])
        #expect(refused.status != 0)
        #expect(refused.error.contains("The value '\(wrong)' is invalid for '\(flag) <"), "\(refused.error)")
        for choice in choices { #expect(refused.error.contains("'\(choice)'"), "\(refused.error) does not offer \(choice)") }
    }

    @Test func servePassingUnknownHostsTakesATimeout() throws {
        let serve = try ServeProcess(["--stubs", exampleStubs.path, "--proxy-unknown", "pass", "--timeout", "5",
                                      "--upstream-proxy", "http://127.0.0.1:9"])
        #expect(serve.port != 0, "\(serve.log)")
    }

    @Test func serveNamesABadHost() throws {
        let r = try run(stubdBinary.path, ["serve", "--stubs", exampleStubs.path, "--host", "203.0.113.9", "--port", "0"])
        #expect(r.status == 1)
        #expect(r.error.contains("203.0.113.9 is not an address of this machine"))
    }

    /// The first stdout line carries the URL; SIGTERM with a delayed answer in flight exits 0 within a second.
    @Test func serveAnnouncesItsURLAndStopsCleanlyOnSIGTERM() async throws {
        let stubs = try TempStubs(["ok.json": "{}", "stubd.yml": "routes:\n  - { request: { path: /slow }, response: { status: 200, delay: 5s } }\n"])
        let (process, out, firstLine) = try serveWithPipedOutput(stubs, ["--log-format", "json"])
        // A failed #require below leaves the test early: the child, holding the run's output pipe,
        // must not outlive it (seen hanging a whole run until killed by hand).
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        #expect(firstLine.hasPrefix("stubd listening on http://127.0.0.1:"))
        #expect(firstLine.hasSuffix("(2 routes from \(stubs.url.path))"))
        let url = String(firstLine.split(separator: " ")[3])
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", url + "/ok.json"]).output == "200")
        // Off the cooperative pool: blocked there for the delay, it could keep this test from sending the SIGTERM.
        async let slow = onItsOwnThread { try curl(["-o", "/dev/null", "-w", "%{http_code}", url + "/slow"]) }
        let held = try await eventually(within: bound(2)) { try curl(["\(url)/__stubd/hits?route=GET%20/slow"]).output.contains("\"hits\":1") }
        try #require(held, "the delayed request never reached the server: the SIGTERM would not find it in flight")
        let signalled = Date()
        process.terminate()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(signalled) < bound(1))
        #expect(process.terminationStatus == 0)
        #expect(try await slow.output == "200", "the delayed answer was sent before exit")
        let log = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let requestLine = try #require(log.split(separator: "\n").first { $0.contains("/ok.json") })
        let json = try JSONSerialization.jsonObject(with: Data(requestLine.utf8)) as? [String: String]
        #expect(json?["status"] == "200")
        #expect(json?["route"] == "GET /ok.json")
    }

    /// A parent that reads only the first line and keeps the pipe open: the log fills the pipe, and
    /// the server must go on answering (lines are dropped and counted) and still stop on SIGTERM.
    @Test func anUndrainedStdoutPipeNeitherFreezesNorPinsTheServer() async throws {
        let (process, out, firstLine) = try serveWithPipedOutput(try TempStubs(["ok.json": "{}"]))
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }   // as above: never outlives the test
        let port = try #require(UInt16(firstLine.split(separator: ":").last?.split(separator: " ").first ?? ""))
        // ~100 bytes of log per request: 3,000 of them are several times what a pipe holds (64 KiB).
        let fd = try #require(connectLoopback(port: port))
        var answered = 0
        var pending: [UInt8] = []
        let request = Array("GET /ok.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        for _ in 0..<3_000 {
            guard send(fd, request, request.count, 0) == request.count else { break }
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: pending, as: UTF8.self).contains("\r\n\r\n{}") {
                let n = recv(fd, &buffer, buffer.count, 0)
                guard n > 0 else { break }
                pending += buffer[0..<n]
            }
            guard String(decoding: pending, as: UTF8.self).hasPrefix("HTTP/1.1 200") else { break }
            pending.removeAll()
            answered += 1
        }
        close(fd)
        #expect(answered == 3_000, "the server stopped answering after \(answered) requests")
        let signalled = Date()
        process.terminate()
        let exited = await eventually(within: 3) { !process.isRunning }
        #expect(exited, "SIGTERM did not stop a server whose output is blocked")
        #expect(Date().timeIntervalSince(signalled) < bound(1))
        if exited { #expect(process.terminationStatus == 0) } else { process.interrupt(); kill(process.processIdentifier, SIGKILL) }
        _ = out.fileHandleForReading.readDataToEndOfFile()
    }

    /// A path with a newline in it (`%0A`) is one log line, escaped, not two.
    @Test func controlCharactersInAPathCannotForgeALogLine() async throws {
        let (process, out, firstLine) = try serveWithPipedOutput(try TempStubs(["ok.json": "{}"]))
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }   // as above: never outlives the test
        let url = String(firstLine.split(separator: " ")[3])
        _ = try curl(["-s", "-o", "/dev/null", url + "/x%0A2026-01-01T00:00:00.000Z%20info%20GET%20/forged%20200"])
        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("2026-01-01") }, "\(log)")
        #expect(log.contains(#"GET /x\n2026-01-01T00:00:00.000Z info GET /forged 200 404"#), "\(log)")
    }

    /// A reload that fails logs a line saying so, then one line per problem (not one line with `\n`s in it).
    @Test func aFailedReloadLogsEachProblemOnALineOfItsOwn() async throws {
        let stubs = try TempStubs(["ok.json": "{}"])
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = ["serve", "--stubs", stubs.url.path, "--port", "0"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let log = Locked("")
        let reader = Thread {
            // `availableData` returns what the pipe holds; `read(upToCount:)` would wait for all 4096 bytes.
            while case let data = out.fileHandleForReading.availableData, !data.isEmpty {
                log.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        reader.start()
        #expect(await eventually(within: 5) { log.withLock { $0.contains("stubd listening on") } })
        try stubs.write("stubd.yml", "routes:\n  - { request: { path: /a }, respnse: { status: 200 } }\n  - { request: { path: /b }, response: { status: 200, fault: explode } }\n")
        let logged = await eventually(within: bound(10)) { log.withLock { $0.contains("unknown fault") } }
        #expect(logged, "\(log.withLock { $0 })")
        let lines = log.withLock { $0 }.split(separator: "\n")
        #expect(lines.contains { $0.contains(" error reload failed: 2 problems in \(stubs.url.path); still serving the previous catalog") }, "\(lines)")
        #expect(lines.contains { $0.contains(" error stubd.yml:2:30: unknown key 'respnse' in a route (did you mean 'response'?)") }, "\(lines)")
        #expect(lines.contains { $0.contains(" error stubd.yml:3:62: unknown fault 'explode'") }, "\(lines)")
        #expect(!lines.contains { $0.contains(#"\n"#) }, "\(lines)")
    }

    @Test func environmentVariablesStandInForFlags() throws {
        var env = ProcessInfo.processInfo.environment
        env["STUBD_STUBS"] = exampleStubs.path
        let r = try run(stubdBinary.path, ["routes"], environment: env)
        #expect(r.status == 0)
        #expect(r.output.contains("london"))
    }

    /// `stubd serve` on `stubs` with `arguments`, its standard output on a pipe, and the pipe's first line.
    private func serveWithPipedOutput(_ stubs: TempStubs, _ arguments: [String] = ["--no-watch"]) throws -> (Process, Pipe, String) {
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = ["serve", "--stubs", stubs.url.path, "--port", "0"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        return (process, out, readLine(out.fileHandleForReading))
    }

    private func readLine(_ handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while let byte = try? handle.read(upToCount: 1), let b = byte.first, b != UInt8(ascii: "\n") { bytes.append(b) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
