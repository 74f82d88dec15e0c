import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing
import StubdProtocol

/// `stubd record` and `serve --proxy` against a real upstream on loopback (another stubd, which
/// wants an API key in the path and in the query), over real sockets.
@Suite(.serialized) struct RecordingTests {
    static let key = "SECRETKEY123"
    static let token = "TOPSECRETTOKEN987"
    /// 1x1 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!

    /// The real API: only the right key gets the answers; London's body echoes the key back.
    static func upstream() throws -> TempStubs {
        let stubs = try TempStubs([
            "stubd.yml": """
            routes:
              - request: { path: "/api/\(key)/conditions/q/CA/San_Francisco.json" }
                response: { json: { current_observation: { temp_f: 76.5, station: "KSFO" } } }
              - request: { path: /data/2.5/weather, query: { q: London, appid: "\(key)" } }
                response: { json: { name: London, cod: 200, echo: "appid=\(key)" } }
              - request: { path: /data/2.5/weather, query: { q: Atlantis, appid: "\(key)" } }
                response: { status: 404, json: { cod: "404", message: "city not found" } }
              - request: { path: /limited }
                response: { status: 429, headers: { Retry-After: "30", X-RateLimit-Remaining: "0" }, json: { message: "slow down" } }
              - request: { method: POST, path: /v1/reports, body: { json: { city: London } } }
                response: { status: 201, headers: { Location: "/v1/reports/7" }, json: { id: 7 } }
              - request: { path: /me, headers: { Authorization: "Bearer \(token)" } }
                response: { json: { login: ada, token_seen: "\(token)" } }
              - request: { path: /slow }
                response: { delay: 2s, json: { late: true } }
            """,
        ])
        try FileManager.default.createDirectory(at: stubs.url.appendingPathComponent("img"), withIntermediateDirectories: true)
        try Self.png.write(to: stubs.url.appendingPathComponent("img/logo.png"))
        return stubs
    }

    /// The requests the app makes, and what each must replay as.
    static let requests: [(method: String, path: String, body: String?, headers: [String: String])] = [
        ("GET", "/api/\(key)/conditions/q/CA/San_Francisco.json", nil, [:]),
        ("GET", "/data/2.5/weather?q=London&appid=\(key)", nil, [:]),
        ("GET", "/data/2.5/weather?q=Atlantis&appid=\(key)", nil, [:]),
        ("GET", "/limited", nil, [:]),
        ("GET", "/img/logo.png", nil, [:]),
        ("POST", "/v1/reports", #"{"city": "London"}"#, ["Content-Type": "application/json"]),
        ("GET", "/me", nil, ["Authorization": "Bearer \(token)"]),
    ]

    func record(into folder: URL, from upstream: URL, mode: StubsRecorder.Mode = .new) async throws -> [HTTPResult] {
        let options = try StubServer.Options.forwarding(to: upstream, recordingInto: folder, rules: RecordingRules(secrets: [NamedSecret(name: "key", value: Self.key)], targetOrigin: upstream.origin), mode: mode)
        let recorder = try StubServer(stubs: folder, options: options)
        defer { recorder.stopSynchronously() }
        var answers: [HTTPResult] = []
        for r in Self.requests {
            answers.append(try await http(URL(string: recorder.baseURL.absoluteString + r.path)!, method: r.method, body: r.body, headers: r.headers))
        }
        return answers
    }

    static func filesText(_ folder: URL) throws -> [String: Data] {
        var all: [String: Data] = [:]
        let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        for case let url as URL in e where !url.hasDirectoryPath {
            all[url.path.replacingOccurrences(of: folder.path, with: "")] = try Data(contentsOf: url)
        }
        return all
    }

    @Test func aRecordedFolderReplaysEveryAnswerOfflineWithoutItsSecrets() async throws {
        let upstreamStubs = try Self.upstream()
        let folder = try TempStubs([:]).url
        let upstream = try StubServer(stubs: upstreamStubs.url)
        let live = try await record(into: folder, from: upstream.baseURL)
        #expect(live.map(\.status) == [200, 200, 404, 429, 200, 201, 200])
        #expect(live[3].header("Retry-After") == "30")
        upstream.stopSynchronously()

        // No secret in any file, but the folder still matches requests that carry them.
        let files = try Self.filesText(folder)
        for (path, data) in files {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains(Self.key), "\(path) holds the API key")
            #expect(!text.contains(Self.token), "\(path) holds the Authorization value")
            #expect(!path.contains(Self.key), "\(path) names the API key")
        }
        #expect(files.keys.contains { $0.contains("{key}") }, "the key's path segment became {key}: \(files.keys.sorted())")
        #expect(files.keys.contains("/stubd.recorded.yml"))

        // The upstream is gone: stubd serve on the recorded folder answers the same.
        try await withServer(folder) { replay in
            for (i, r) in Self.requests.enumerated() {
                let again = try await http(URL(string: replay.baseURL.absoluteString + r.path)!, method: r.method, body: r.body, headers: r.headers)
                #expect(again.status == live[i].status, "\(r.path)")
                #expect(again.header("Content-Type") == live[i].header("Content-Type"), "\(r.path)")
                if (again.header("Content-Type") ?? "").contains("json") {
                    // The same JSON (recorded pretty-printed), secrets replaced.
                    let a = try JSONSerialization.jsonObject(with: again.body) as? NSDictionary
                    let b = try JSONSerialization.jsonObject(with: Data(live[i].text.replacingOccurrences(of: Self.key, with: "<key>")
                        .replacingOccurrences(of: Self.token, with: "<redacted>").utf8)) as? NSDictionary
                    #expect(a == b, "\(r.path): \(again.text) vs \(live[i].text)")
                } else {
                    #expect(again.body == live[i].body, "\(r.path)")
                }
            }
            #expect(try await get(replay.baseURL, "/limited").header("Retry-After") == "30")
            #expect(try await get(replay.baseURL, "/img/logo.png").body == Self.png)
        }
        // stubd check passes on it.
        let check = try run(stubdBinary.path, ["check", "--stubs", folder.path])
        #expect(check.status == 0, "\(check.output)\(check.error)")
    }

    @Test func recordingTheSameRequestsAgainInModeNewChangesNoFile() async throws {
        let upstreamStubs = try Self.upstream()
        let folder = try TempStubs([:]).url
        let upstream = try StubServer(stubs: upstreamStubs.url)
        defer { upstream.stopSynchronously() }
        _ = try await record(into: folder, from: upstream.baseURL)
        let first = try Self.filesText(folder)
        _ = try await record(into: folder, from: upstream.baseURL)
        let second = try Self.filesText(folder)
        #expect(second == first)
    }

    @Test func modeAllRewritesWhatModeNewLeavesAlone() async throws {
        let upstreamStubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /status, headers: { X-Tenant: blue } }
                response: { json: { version: 1 } }
            """])
        let upstream = try StubServer(stubs: upstreamStubs.url)
        defer { upstream.stopSynchronously() }
        let folder = try TempStubs([:]).url
        func recordStatus(_ mode: StubsRecorder.Mode) async throws {
            let options = try StubServer.Options.forwarding(to: upstream.baseURL, recordingInto: folder, rules: RecordingRules(matchHeaders: ["X-Tenant"]), mode: mode)
            try await withServer(folder, options: options) { (recorder: StubServer) async throws in
                #expect(try await get(recorder.baseURL, "/status", headers: ["X-Tenant": "blue"]).status == 200)
            }
        }
        try await recordStatus(.new)
        let manifest = folder.appendingPathComponent("stubd.recorded.yml")
        // Matched on the allowed header, so a manifest route (a file cannot say it).
        #expect(try String(contentsOf: manifest, encoding: .utf8).contains(#"headers: { "X-Tenant": "blue" }"#))
        try upstreamStubs.write("stubd.yml", """
            routes:
              - request: { path: /status, headers: { X-Tenant: blue } }
                response: { json: { version: 2 } }
            """)
        try upstream.reload()
        try await recordStatus(.new)
        try await withServer(folder) { (replay: StubServer) async throws in
            #expect(try await get(replay.baseURL, "/status", headers: ["X-Tenant": "blue"]).json["version"] as? Int == 1)
            #expect(try await get(replay.baseURL, "/status", headers: ["X-Tenant": "red"]).status == 404)
        }
        try await recordStatus(.all)
        try await withServer(folder) { (replay: StubServer) async throws in
            #expect(try await get(replay.baseURL, "/status", headers: ["X-Tenant": "blue"]).json["version"] as? Int == 2)
        }
    }

    @Test func aRequestAnsweredDifferentlyTwiceBecomesASequence() async throws {
        let upstreamStubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /flaky }
                responses: [{ status: 503 }, { json: { ok: true } }]
            """])
        let upstream = try StubServer(stubs: upstreamStubs.url)
        defer { upstream.stopSynchronously() }
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: upstream.baseURL, recordingInto: folder)
        try await withServer(folder, options: options) { (recorder: StubServer) async throws in
            #expect(try await get(recorder.baseURL, "/flaky").status == 503)
            #expect(try await get(recorder.baseURL, "/flaky").status == 200)
        }
        try await withServer(folder) { (replay: StubServer) async throws in
            #expect(try await get(replay.baseURL, "/flaky").status == 503)
            #expect(try await get(replay.baseURL, "/flaky").status == 200)
            #expect(try await get(replay.baseURL, "/flaky").status == 200)
        }
    }

    @Test func serveWithProxyAnswersStubsLocallyAndForwardsTheRest() async throws {
        let upstreamStubs = try TempStubs(["remote.json": #"{"from": "upstream"}"#, "local.json": #"{"from": "upstream too"}"#])
        let upstream = try StubServer(stubs: upstreamStubs.url)
        defer { upstream.stopSynchronously() }
        let local = try TempStubs(["local.json": #"{"from": "stubd"}"#])
        let options = try StubServer.Options.forwarding(to: upstream.baseURL, scope: .misses)
        try await withServer(local.url, options: options) { server in
            #expect(try await get(server.baseURL, "/local.json").json["from"] as? String == "stubd")
            #expect(try await get(server.baseURL, "/remote.json").json["from"] as? String == "upstream")
            #expect(try await upstream.hits("GET /local.json") == 0)
            #expect(try await upstream.hits("GET /remote.json") == 1)
            let journal = try await get(server.baseURL, "/__stubd/requests").json["requests"] as? [[String: Any]]
            #expect(journal?.last?["route"] as? String == "proxy")
            let note = (journal?.last?["notes"] as? [String])?.first ?? ""
            #expect(note.contains("proxied to"))
            // Nothing was written: no recorder.
            #expect(!FileManager.default.fileExists(atPath: local.url.appendingPathComponent("stubd.recorded.yml").path))
        }
    }

    @Test func serveWithProxyAndRecordMissingWritesOnlyWhatWasMissing() async throws {
        let upstreamStubs = try TempStubs(["remote.json": #"{"from": "upstream"}"#, "local.json": #"{"from": "upstream too"}"#])
        let upstream = try StubServer(stubs: upstreamStubs.url)
        defer { upstream.stopSynchronously() }
        let local = try TempStubs(["local.json": #"{"from": "stubd"}"#])
        let options = try StubServer.Options.forwarding(to: upstream.baseURL, scope: .misses, recordingInto: local.url)
        try await withServer(local.url, options: options) { (server: StubServer) async throws in
            #expect(try await get(server.baseURL, "/local.json").json["from"] as? String == "stubd")
            #expect(try await get(server.baseURL, "/remote.json").json["from"] as? String == "upstream")
            // The health document says it proxies and records, and how much it wrote (issue 30's recording view).
            let forwarding = try await StubdClient(baseURL: server.baseURL).health().forwarding
            #expect(forwarding?.mode == "proxy" && forwarding?.target == upstream.baseURL.absoluteString, "\(String(describing: forwarding))")
            #expect(forwarding?.recording == true && forwarding?.recorded == 1, "\(String(describing: forwarding))")
        }
        let files = try Self.filesText(local.url)
        #expect(Set(files.keys) == ["/local.json", "/remote.json"])
        #expect(String(decoding: files["/local.json"] ?? Data(), as: UTF8.self).contains("stubd"))
    }

    @Test func anUnreachableTargetIsA502NamingItAndNothingIsWritten() async throws {
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: URL(string: "http://127.0.0.1:9")!, recordingInto: folder)
        try await withServer(folder, options: options) { recorder in
            let r = try await get(recorder.baseURL, "/anything")
            #expect(r.status == 502)
            #expect(r.header("Content-Type")?.hasPrefix("application/problem+json") == true)
            #expect((r.json["detail"] as? String)?.contains("http://127.0.0.1:9") == true)
        }
        let written = try Self.filesText(folder)
        #expect(written.isEmpty, "\(written.keys)")
    }

    @Test func aTargetThatTakesTooLongIsA504AfterTheTimeout() async throws {
        let upstreamStubs = try Self.upstream()
        let upstream = try StubServer(stubs: upstreamStubs.url)
        defer { upstream.stopSynchronously() }
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: upstream.baseURL, recordingInto: folder) {
            $0.timeoutSeconds = 0.5
        }
        try await withServer(folder, options: options) { recorder in
            let start = Date()
            let r = try await get(recorder.baseURL, "/slow")
            #expect(r.status == 504)
            #expect(Date().timeIntervalSince(start) < 1.8)
            #expect((r.json["detail"] as? String)?.contains("--timeout") == true)
        }
        let written = try Self.filesText(folder)
        #expect(written.isEmpty, "\(written.keys)")
    }

    @Test func aBodyOverMaxBodyIsStreamedAsItArrivesAndNotWritten() async throws {
        // 400 KB at 400 KB/s: about a second from the first byte to the last.
        let big = String(repeating: "x", count: 400_000)
        let upstreamStubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /big.txt }
                response: { body: "\(big)", throttle: { bytes_per_second: 400000 } }
            """])
        let upstream = try StubServer(stubs: upstreamStubs.url)
        defer { upstream.stopSynchronously() }
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: upstream.baseURL, recordingInto: folder) {
            $0.maxBodyBytes = 100_000
        }
        try await withServer(folder, options: options) { (recorder: StubServer) async throws in
            let r = try curl(["-o", "/dev/null", "-w", "%{http_code} %{size_download} %{time_starttransfer} %{time_total}",
                              recorder.baseURL.absoluteString + "/big.txt"])
            let fields = r.output.split(separator: " ").map(String.init)
            #expect(fields.count == 4, "\(r.output)")
            #expect(fields.first == "200")
            #expect(fields.dropFirst().first == "400000")
            let first = Double(fields.dropFirst(2).first ?? "") ?? 99, last = Double(fields.last ?? "") ?? 0
            // Held whole, the first byte would come with the last.
            #expect(first < 0.6 && last > 0.8 && last - first > 0.4, "first byte at \(first) s, last at \(last) s")
            let journal = try await get(recorder.baseURL, "/__stubd/requests").json["requests"] as? [[String: Any]]
            let note = (journal?.last?["notes"] as? [String])?.first ?? ""
            #expect(note.contains("streamed 400000 bytes, not recorded: over --max-body"), "\(note)")
        }
        let written = try Self.filesText(folder)
        #expect(written.isEmpty, "\(written.keys)")
    }

    @Test func anHTTPSTargetWithItsOwnCertificateNeedsCaFileOrInsecure() async throws {
        let served = try TempStubs(["hello.json": #"{"secure": true}"#])
        let upstream = try TLSUpstream(serving: served.url)
        let target = URL(string: "https://127.0.0.1:\(upstream.port)")!
        for (caFile, insecure, expected) in [(nil, false, 502), (upstream.certificate.path, false, 200), (nil, true, 200)] as [(String?, Bool, Int)] {
            let folder = try TempStubs([:]).url
            let options = try StubServer.Options.forwarding(to: target, recordingInto: folder) {
                $0.caFile = caFile
                $0.insecure = insecure
            }
            try await withServer(folder, options: options) { (recorder: StubServer) async throws in
                let r = try await get(recorder.baseURL, "/hello.json")
                #expect(r.status == expected, "ca-file \(caFile ?? "none"), insecure \(insecure): \(r.text)")
                if expected == 502 { #expect(r.text.contains("certificate")) }
                else { #expect(r.json["secure"] as? Bool == true) }
            }
            let files = try Self.filesText(folder)
            #expect(files.keys.contains("/hello.json") == (expected == 200))
        }
    }

    @Test func theCommandRefusesInCIAndAFolderItCannotWrite() throws {
        let folder = try TempStubs([:]).url
        let ci = try run(stubdBinary.path, ["record", "--target", "http://127.0.0.1:9", "--stubs", folder.path, "--port", "0"],
                         environment: ProcessInfo.processInfo.environment.merging(["CI": "true"]) { $1 })
        #expect(ci.status == 1)
        #expect(ci.error.contains("--allow-ci"))
        // A file where the folder should be: refused before listening.
        let file = folder.appendingPathComponent("plain.txt")
        try Data("x".utf8).write(to: file)
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        let notAFolder = try run(stubdBinary.path, ["record", "--target", "http://127.0.0.1:9", "--stubs", file.path, "--port", "0"], environment: env)
        #expect(notAFolder.status == 1)
        #expect(notAFolder.error.contains("is a file, not a folder"))
    }
}
