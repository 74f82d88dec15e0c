import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// Recording against upstreams that answer what no polite API would, over real sockets: nothing
/// crashes the recorder, no written name changes meaning, no secret reaches the folder or the log
/// (issue 23).
@Suite(.serialized) struct RecordingHardeningTests {
    static func json(_ text: String) -> Data { Data(text.utf8) }

    @Test func aSetCookieWithoutANameIsNotKeptAndRecordingGoesOn() async throws {
        let upstream = try RawUpstream(answers: [
            "/semicolon": RawUpstream.response(headers: ["Content-Type: application/json", "Set-Cookie: ;"], body: Self.json(#"{"a":1}"#)),
            "/empty": RawUpstream.response(headers: ["Content-Type: application/json", "Set-Cookie:"], body: Self.json(#"{"b":2}"#)),
            "/named": RawUpstream.response(headers: ["Content-Type: application/json", "Set-Cookie: sid=abcdef123456; Path=/"],
                                           body: Self.json(#"{"c":3}"#)),
        ])
        let folder = try TempStubs([:]).url
        try await withServer(folder, options: try StubServer.Options.forwarding(to: upstream.url, recordingInto: folder)) { (recorder: StubServer) async throws in
            for path in ["/semicolon", "/empty", "/named"] {
                #expect(try await get(recorder.baseURL, path).status == 200, "\(path)")
            }
        }
        try await withServer(folder) { (replay: StubServer) async throws in
            let semicolon = try await get(replay.baseURL, "/semicolon")
            #expect(semicolon.json["a"] as? Int == 1)
            #expect(semicolon.header("Set-Cookie") == nil)
            #expect(try await get(replay.baseURL, "/empty").json["b"] as? Int == 2)
            #expect(try await get(replay.baseURL, "/named").header("Set-Cookie") == "sid=<redacted>; Path=/")
        }
    }

    /// Every file in `folder` (relative path → bytes).
    static func files(_ folder: URL) throws -> [String: Data] {
        var all: [String: Data] = [:]
        let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        for case let url as URL in e where !url.hasDirectoryPath {
            all[url.path.replacingOccurrences(of: folder.path, with: "")] = try Data(contentsOf: url)
        }
        return all
    }

    /// The files (and their names) that hold any of `secrets`.
    static func leaks(of secrets: [String], in folder: URL) throws -> [String] {
        try files(folder).flatMap { path, data in
            secrets.filter { data.range(of: Data($0.utf8)) != nil || path.contains($0) }.map { "\(path) holds \($0)" }
        }.sorted()
    }

    @Test func aSecretEchoedInABodyOfAnyTypeIsFoundByteForByte() async throws {
        let key = "KEY-7f3a9c2e"
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!
        let upstream = try RawUpstream(answers: [
            "/blob": RawUpstream.response(headers: ["Content-Type: application/octet-stream"],
                                          body: Data([0, 1, 0xFE]) + Data(key.utf8) + Data([0xFF, 0])),
            "/logo.png": RawUpstream.response(headers: ["Content-Type: image/png"], body: png + Data(key.utf8)),
            // JSON with a byte that is not UTF-8 in it.
            "/broken.json": RawUpstream.response(headers: ["Content-Type: application/json"],
                                                 body: Data(#"{"echo": "\#(key)", "x": ""#.utf8) + Data([0xFF]) + Data(#""}"#.utf8)),
            // Not JSON at all, though it says so: still written, still loads.
            "/cut.json": RawUpstream.response(headers: ["Content-Type: application/json"], body: Data(#"{"echo": "\#(key)", "#.utf8)),
        ])
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: upstream.url, recordingInto: folder, rules: RecordingRules(secrets: [NamedSecret(name: "key", value: key)]))
        try await withServer(folder, options: options) { (recorder: StubServer) async throws in
            for path in ["/blob", "/logo.png", "/broken.json", "/cut.json"] {
                #expect(try await get(recorder.baseURL, path).status == 200, "\(path)")
            }
        }
        #expect(try Self.leaks(of: [key], in: folder) == [])
        try await withServer(folder) { (replay: StubServer) async throws in
            let blob = try await get(replay.baseURL, "/blob")
            #expect(blob.body == Data([0, 1, 0xFE]) + Data("<key>".utf8) + Data([0xFF, 0]))
            #expect(try await get(replay.baseURL, "/logo.png").body == png + Data("<key>".utf8))
            let broken = try await get(replay.baseURL, "/broken.json")
            #expect(broken.status == 200)
            #expect(broken.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(broken.body.range(of: Data(#""echo": "<key>""#.utf8)) != nil, "\(broken.text)")
            let cut = try await get(replay.baseURL, "/cut.json")
            #expect(cut.text == #"{"echo": "<key>", "#)
            #expect(cut.header("Content-Type")?.hasPrefix("application/json") == true)
        }
    }

    @Test func credentialsByNameAndCookieValuesAreNeverWritten() async throws {
        let (auth, privateToken, password, sig, signature) = ("AUTHTOKEN-111", "PRIVTOKEN-222", "hunter2-333", "SIG-444", "SIGNATURE-555")
        let (cookie, setCookie) = ("COOKIEVALUE-666", "NEWSESSION-777")
        // The API echoes every credential back, each on its own, and sets a session it also echoes.
        let echo = [auth, privateToken, password, sig, signature, cookie, setCookie].map { "\"\($0)\"" }.joined(separator: ", ")
        let upstream = try RawUpstream(answers: [
            "/whoami": RawUpstream.response(headers: ["Content-Type: application/json", "Set-Cookie: session=\(setCookie); Path=/"],
                                            body: Data("{\"seen\": [\(echo)]}".utf8)),
        ])
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: upstream.url, recordingInto: folder)
        let query = "/whoami?password=\(password)&sig=\(sig)&signature=\(signature)&user=ada"
        let headers = ["X-Auth-Token": auth, "Private-Token": privateToken, "Cookie": "theme=dark; sid=\(cookie)"]
        try await withServer(folder, options: options) { (recorder: StubServer) async throws in
            // curl: URLSession on Linux drops a Cookie header set by hand.
            let r = try curl(["-o", "/dev/null", "-w", "%{http_code}"] + headers.flatMap { ["-H", "\($0.key): \($0.value)"] }
                             + [recorder.baseURL.absoluteString + query])
            #expect(r.output == "200")
        }
        #expect(try Self.leaks(of: [auth, privateToken, password, sig, signature, cookie, setCookie], in: folder) == [])
        let manifest = try String(contentsOf: folder.appendingPathComponent("stubd.recorded.yml"), encoding: .utf8)
        #expect(manifest.contains(#""password": "*", "sig": "*", "signature": "*", "user": "ada""#), "\(manifest)")
        // Replayed with other credentials: present, any value.
        try await withServer(folder) { (replay: StubServer) async throws in
            let again = try await get(replay.baseURL, "/whoami?password=x&sig=y&signature=z&user=ada")
            #expect(again.status == 200)
            #expect(again.json["seen"] as? [String] == ["<redacted>", "<redacted>", "<password>", "<sig>", "<signature>", "<redacted>", "<redacted>"],
                    "\(again.text)")
        }
    }

    /// Runs the stubd binary for at most `seconds`; a process still running then is killed (and
    /// `timedOut` says so) rather than hanging the test.
    func runBounded(_ arguments: [String], seconds: Double = 10) throws -> (status: Int32, error: String, timedOut: Bool) {
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        process.environment = env
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(bound(seconds))
        while process.isRunning, Date() < deadline { usleep(20_000) }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), timedOut)
    }

    @Test func aSecretNameThatIsNotAPlainIdentifierIsRefusedAndNothingIsWrittenOutside() throws {
        let base = try TempStubs([:]).url
        let folder = base.appendingPathComponent("a/b/c/d/Stubs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let upstream = try RawUpstream(answers: ["/abc/x.json": RawUpstream.response(headers: ["Content-Type: application/json"],
                                                                                    body: Self.json("{}"))])
        for command in [["record", "--target", upstream.url.absoluteString],
                        ["serve", "--proxy", upstream.url.absoluteString, "--record-missing"]] {
            let r = try runBounded(command + ["--stubs", folder.path, "--port", "0", "--secret", "../../../../outside/escaped=abc"])
            #expect(!r.timedOut && r.status != 0, "\(command[0]) started anyway")
            #expect(r.error.contains("--secret NAME must be a plain identifier"), "\(r.error)")
            #expect(!r.error.contains("=abc"), "the error repeats the secret's value: \(r.error)")
        }
        let written = try Self.files(base).keys.sorted()
        #expect(written.isEmpty, "\(written)")
        #expect(throws: RecorderError.self) {
            try StubsRecorder(root: folder, rules: RecordingRules(secrets: [NamedSecret(name: "../x", value: "abc")]), mode: .new)
        }
    }

    @Test func theJournalAndTheLogMaskCredentialHeadersQueryValuesAndSecrets() async throws {
        let (key, headerKey, appid, apiKey) = ("KEYVALUE-8812", "HEADERKEY-9921", "APPID-3344", "APIKEY-5566")
        let upstream = try RawUpstream(answers: [
            "/api/\(key)/data.json": RawUpstream.response(headers: ["Content-Type: application/json"], body: Self.json(#"{"ok": true}"#)),
        ])
        let folder = try TempStubs([:]).url
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = ["serve", "--stubs", folder.path, "--port", "0", "--no-watch", "--proxy", upstream.url.absoluteString,
                             "--record-missing", "--secret", "key=\(key)"]
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var first: [UInt8] = []
        while let byte = try? out.fileHandleForReading.read(upToCount: 1), let b = byte.first, b != UInt8(ascii: "\n") { first.append(b) }
        let url = String(String(decoding: first, as: UTF8.self).split(separator: " ").dropFirst(3).first ?? "")
        let answer = try curl(["-w", " %{http_code}", "-H", "X-Api-Key: \(headerKey)",
                               "\(url)/api/\(key)/data.json?appid=\(appid)&api_key=\(apiKey)&units=metric"])
        #expect(answer.output.hasSuffix(" 200"), "\(answer.output)")
        let journal = try curl(["\(url)/__stubd/requests"]).output
        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        for (name, text) in [("journal", journal), ("log", log)] {
            for secret in [key, headerKey, appid, apiKey] { #expect(!text.contains(secret), "the \(name) shows \(secret): \(text)") }
            #expect(text.contains("/api/<key>/data.json"), "\(name): \(text)")
        }
        let entry = try #require((try JSONSerialization.jsonObject(with: Data(journal.utf8)) as? [String: Any])?["requests"] as? [[String: Any]]).first
        #expect(entry?["query"] as? [String: String] == ["appid": "<masked>", "api_key": "<masked>", "units": "metric"])
        #expect((entry?["headers"] as? [String: String])?["X-Api-Key"] == "<masked>")
    }

    /// Files anywhere under `folder` whose name says a write did not finish.
    static func tempFiles(_ folder: URL) throws -> [String] {
        try files(folder).keys.filter { $0.contains(".stubd-record-") }.sorted()
    }

    @Test func recordedNamesMeanTheirRequestAndNothingElse() async throws {
        let long = String(repeating: "x", count: 300)
        let json = { (text: String) in RawUpstream.response(headers: ["Content-Type: application/json"], body: Self.json(text)) }
        let upstream = try RawUpstream(answers: [
            "/r.POST": json(#"{"asked": "GET /r.POST"}"#),
            "/x.HEAD": json(#"{"asked": "GET /x.HEAD"}"#),
            "/bad.tmpl": json(#"{"echo": "{{#if x}}"}"#),
            "/t.tmpl.json": json(#"{"echo": "{{#each y}}"}"#),
            "/long/\(long)": json(#"{"asked": "a long segment"}"#),
            "/q/%7Bid%7D": json(#"{"asked": "a literal brace"}"#),
        ])
        let folder = try TempStubs([:]).url
        try await withServer(folder, options: try StubServer.Options.forwarding(to: upstream.url, recordingInto: folder)) { (recorder: StubServer) async throws in
            for path in ["/r.POST", "/x.HEAD", "/bad.tmpl", "/t.tmpl.json", "/long/\(long)", "/q/%7Bid%7D"] {
                #expect(try await get(recorder.baseURL, path).status == 200, "\(path)")
            }
        }
        #expect(try Self.tempFiles(folder) == [])
        let check = try run(stubdBinary.path, ["check", "--stubs", folder.path])
        #expect(check.status == 0, "\(check.output)\(check.error)")
        try await withServer(folder) { (replay: StubServer) async throws in
            #expect(try await get(replay.baseURL, "/r.POST").json["asked"] as? String == "GET /r.POST")
            #expect(try await http(URL(string: replay.baseURL.absoluteString + "/r")!, method: "POST").status == 404)
            #expect(try await get(replay.baseURL, "/x.HEAD").json["asked"] as? String == "GET /x.HEAD")
            #expect(try await get(replay.baseURL, "/x").status == 404)
            // Written as plain bodies, the braces are text, not templates.
            #expect(try await get(replay.baseURL, "/bad.tmpl").json["echo"] as? String == "{{#if x}}")
            #expect(try await get(replay.baseURL, "/t.tmpl.json").json["echo"] as? String == "{{#each y}}")
            #expect(try await get(replay.baseURL, "/long/\(long)").json["asked"] as? String == "a long segment")
            // Not written: a stubd path would read the braces as a parameter answering any segment.
            #expect(try await get(replay.baseURL, "/q/other").status == 404)
        }
        // A long segment's body file is named with a hash, under any file system's limit.
        let names = try Self.files(folder).keys
        #expect(names.allSatisfy { $0.split(separator: "/").allSatisfy { $0.utf8.count <= 255 } }, "\(names.sorted())")
    }

    @Test func aWriteThatFailsIsRolledBackWhole() async throws {
        let upstream = try RawUpstream(answers: [
            "/search": RawUpstream.response(headers: ["Content-Type: application/json"], body: Self.json(#"{"hits": 3}"#)),
        ])
        // Where the recorder's manifest goes, a folder: the body is written, then the manifest cannot be.
        let folder = try TempStubs([:]).url
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("stubd.recorded.yml"), withIntermediateDirectories: true)
        try await withServer(folder, options: try StubServer.Options.forwarding(to: upstream.url, recordingInto: folder)) { (recorder: StubServer) async throws in
            #expect(try await get(recorder.baseURL, "/search?q=ada").json["hits"] as? Int == 3)
            let journal = try await get(recorder.baseURL, "/__stubd/requests").json["requests"] as? [[String: Any]]
            let note = (journal?.last?["notes"] as? [String])?.first ?? ""
            #expect(note.contains("RECORDING FAILED") && note.contains("nothing was written"), "\(note)")
        }
        let left = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["stubd.recorded.yml"], "\(left)")
    }

    @Test func eachAnswerOfASequenceKeepsItsOwnBody() async throws {
        let upstreamStubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /seq }
                responses: [{ json: { n: 1 } }, { json: { n: 2 } }, { json: { n: 3 } }]
            """])
        let upstream = try StubServer(stubs: upstreamStubs.url)
        defer { upstream.stopSynchronously() }
        let folder = try TempStubs([:]).url
        try await withServer(folder, options: try StubServer.Options.forwarding(to: upstream.baseURL, recordingInto: folder)) { (recorder: StubServer) async throws in
            for n in 1...3 { #expect(try await get(recorder.baseURL, "/seq").json["n"] as? Int == n) }
        }
        try await withServer(folder) { (replay: StubServer) async throws in
            for n in [1, 2, 3, 3] { #expect(try await get(replay.baseURL, "/seq").json["n"] as? Int == n) }
        }
    }

    /// The check after a write reads the written route alone (loading the whole folder each time
    /// made recording slower with every route): a file the user breaks meanwhile elsewhere in the
    /// folder does not stop recording. The folder's speed is Benchmarks/recording.py's to show.
    @Test func eachWriteIsCheckedAloneNotByReloadingTheFolder() async throws {
        let json = RawUpstream.response(headers: ["Content-Type: application/json"], body: Self.json(#"{"ok": true}"#))
        let upstream = try RawUpstream(answers: ["/a.json": json, "/b.json": json, "/search": json])
        let folder = try TempStubs([:])
        try await withServer(folder.url, options: try StubServer.Options.forwarding(to: upstream.url, recordingInto: folder.url)) { (recorder: StubServer) async throws in
            #expect(try await get(recorder.baseURL, "/a.json").status == 200)
            try folder.write("mine/broken.json", "{ \"half\": ")
            #expect(try await get(recorder.baseURL, "/b.json").status == 200)
            #expect(try await get(recorder.baseURL, "/search?q=x").status == 200)
            let journal = try await get(recorder.baseURL, "/__stubd/requests").json["requests"] as? [[String: Any]] ?? []
            let notes = journal.compactMap { ($0["notes"] as? [String])?.first }
            #expect(notes.count == 3 && notes.allSatisfy { $0.contains("recorded as") }, "\(notes)")
        }
        let written = try Self.files(folder.url).keys
        #expect(written.contains("/b.json") && written.contains("/stubd.recorded.yml"), "\(written.sorted())")
    }
}
