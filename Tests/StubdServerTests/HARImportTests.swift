import Foundation
import StubdTestSupport
import Testing

/// `stubd import har`, on HARs mitmproxy wrote of curl's traffic to a local API
/// (Fixtures/HAR/make-hars.sh regenerates them; mitmproxy is not needed to run these tests): the
/// folder it writes, served by `stubd serve`, gives the same client the same answers.
/// What the import refuses or needs told, with no server: HARImportFolderTests.
@Suite struct HARImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/HAR")
    static let forward = fixtures.appendingPathComponent("mitmproxy-forward.har")
    static let twoHosts = fixtures.appendingPathComponent("mitmproxy-two-hosts.har")
    /// Chromium's traffic, as Playwright writes it (make-chromium-har.py): a page on localhost calling the API on 127.0.0.1.
    static let chromium = fixtures.appendingPathComponent("chromium.har")
    /// What the capture's client sent that must never reach the folder.
    static let secrets = ["k3y-0123456789", "tok-abcdef123456", "s3ss10n-0123456789abcdef"]
    /// What client.sh prints against the upstream: each command's final status.
    static let clientStatuses: [Substring] = ["200", "200", "200", "503", "200", "200", "200", "200", "204", "201", "200", "200"]

    static func importHAR(_ har: URL, _ dir: URL, _ extra: [String] = []) throws -> (status: Int32, output: String, error: String) {
        try run(stubdBinary.path, ["import", "har", har.path, "--stubs", dir.path] + extra)
    }

    static func freshFolder() throws -> URL { try TempStubs([:]).url.appendingPathComponent("Stubs") }

    /// Every file under `dir` (dot-files included), path → bytes.
    static func contents(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.isRegularFileKey]) else { return [:] }
        for case let url as URL in walker where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            out[String(url.path.dropFirst(dir.path.count + 1))] = try Data(contentsOf: url)
        }
        return out
    }

    /// The HAR's entries as JSON objects.
    static func entries(_ har: URL) throws -> [[String: Any]] {
        let top = try JSONSerialization.jsonObject(with: Data(contentsOf: har)) as! [String: Any]
        return (top["log"] as! [String: Any])["entries"] as! [[String: Any]]
    }

    /// The entry's request sent again with curl to `base`: status, headers (lower-case names), body.
    static func replay(_ entry: [String: Any], to base: URL) throws -> (status: Int, headers: [String: String], body: Data) {
        let request = entry["request"] as! [String: Any]
        let url = URLComponents(string: request["url"] as! String)!
        var arguments = ["-s", "--max-time", "5", "--compressed", "-X", request["method"] as! String, "-D", "-"]
        for header in request["headers"] as! [[String: String]] {
            let name = header["name"]!.lowercased()
            if ["host", "content-length", "accept-encoding", "proxy-connection"].contains(name) { continue }
            arguments += ["-H", "\(header["name"]!): \(header["value"]!)"]
        }
        if let post = request["postData"] as? [String: Any], let text = post["text"] as? String, !text.isEmpty {
            arguments += ["--data-binary", text]
        }
        let bodyFile = FileManager.default.temporaryDirectory.appendingPathComponent("har-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        arguments += ["-o", bodyFile.path, base.absoluteString + url.percentEncodedPath + (url.percentEncodedQuery.map { "?" + $0 } ?? "")]
        let result = try run("/usr/bin/curl", arguments)
        var status = 0
        var headers: [String: String] = [:]
        for line in result.output.split(separator: "\r\n") {
            if line.hasPrefix("HTTP/") { status = Int(line.split(separator: " ")[1]) ?? 0; continue }
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return (status, headers, (try? Data(contentsOf: bodyFile)) ?? Data())
    }

    /// The answer's body as the HAR holds it, decoded.
    static func body(_ entry: [String: Any]) -> Data {
        let content = (entry["response"] as! [String: Any])["content"] as! [String: Any]
        let text = content["text"] as? String ?? ""
        return content["encoding"] as? String == "base64" ? Data(base64Encoded: text)! : Data(text.utf8)
    }

    @Test func aMitmproxyCaptureServedGivesTheSameClientTheSameAnswers() throws {
        let dir = try Self.freshFolder()
        let imported = try Self.importHAR(Self.forward, dir)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("imported 13 of 13 requests"), "\(imported.output)")
        #expect(imported.output.contains("rec-ff38e897 in stubd.recorded.yml (answer 2 of a sequence)"), "\(imported.output)")
        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path])
        #expect(check.status == 0, "\(check.output)\(check.error)")

        // The client itself, as it ran through mitmproxy: each command's final status.
        let client = try ServeProcess(["--stubs", dir.path])
        let statuses = try run("/bin/sh", [Self.fixtures.appendingPathComponent("client.sh").path, client.baseURL.absoluteString],
                               environment: ["PATH": "/usr/bin:/bin", "CURL_PROXY": ""])
        #expect(statuses.output.split(separator: "\n") == Self.clientStatuses, "\(statuses.output)\(statuses.error)")

        // Each request of the HAR, in order, against a fresh server: the answer the HAR holds.
        let serve = try ServeProcess(["--stubs", dir.path])
        for entry in try Self.entries(Self.forward) {
            let url = (entry["request"] as! [String: Any])["url"] as! String
            let expected = entry["response"] as! [String: Any]
            let answer = try Self.replay(entry, to: serve.baseURL)
            #expect(answer.status == expected["status"] as! Int, "\(url)")
            if url.hasSuffix("/me") {
                // The token echoed back is scrubbed, as `stubd record` scrubs it.
                #expect(String(decoding: answer.body, as: UTF8.self) == #"{"user": "ada", "token": "<redacted>"}"#)
                #expect(answer.headers["set-cookie"] == "session=<redacted>; Path=/; HttpOnly")
            } else {
                #expect(answer.body == Self.body(entry), "\(url): \(String(decoding: answer.body, as: UTF8.self).prefix(200))")
            }
            let sentType = (expected["headers"] as! [[String: String]]).first { $0["name"]!.lowercased() == "content-type" }?["value"]
            if let sentType { #expect(answer.headers["content-type"]?.hasPrefix(sentType) == true, "\(url): \(answer.headers)") }
            if url.hasSuffix("/old") { #expect(answer.headers["location"] == "/api/items.json", "a redirect on the host points at stubd") }
            if url.hasSuffix("/v1/reports") {
                #expect(answer.headers["access-control-allow-origin"] == "http://app.example", "\(url): the CORS headers came over")
            }
            if url.hasSuffix("/notes.txt") { #expect(answer.headers["content-encoding"] == nil, "stored decoded") }
        }
        for (path, data) in try Self.contents(dir) {
            for secret in Self.secrets { #expect(data.range(of: Data(secret.utf8)) == nil, "\(path) holds \(secret)") }
        }
    }

    @Test func aChromiumCaptureOfOneHostServedGivesTheSameAnswers() throws {
        let dir = try Self.freshFolder()
        let refused = try Self.importHAR(Self.chromium, dir)
        #expect(refused.status == 1 && refused.error.contains("holds requests to 3 hosts: localhost:"), "\(refused.error)")
        let imported = try Self.importHAR(Self.chromium, dir, ["--host", "127.0.0.1"])
        #expect(imported.status == 0, "\(imported.error)")
        // Seven answers; the request Chromium could not send (status -1) is listed, not imported.
        #expect(imported.output.contains("imported 7 of 9 requests"), "\(imported.output)")
        #expect(imported.output.contains("NOT IMPORTED: no answer (status -1: the request failed or was blocked: net::ERR_UNSAFE_PORT)"),
                "\(imported.output)")
        #expect(imported.output.contains("not imported: 1 requests to other hosts (localhost:"), "\(imported.output)")
        let serve = try ServeProcess(["--stubs", dir.path])
        let api = try Self.entries(Self.chromium).filter {
            (($0["request"] as! [String: Any])["url"] as! String).hasPrefix("http://127.0.0.1:") && ($0["response"] as! [String: Any])["status"] as! Int > 0
        }
        #expect(api.count == 7)
        for entry in api {
            let url = (entry["request"] as! [String: Any])["url"] as! String
            let answer = try Self.replay(entry, to: serve.baseURL)
            #expect(answer.status == (entry["response"] as! [String: Any])["status"] as! Int, "\(url)")
            #expect(answer.body == Self.body(entry), "\(url): \(String(decoding: answer.body, as: UTF8.self).prefix(200))")
            #expect(answer.headers["access-control-allow-origin"]?.hasPrefix("http://localhost:") == true,
                    "\(url): the page on localhost may read the replay: \(answer.headers)")
            if url.hasSuffix("/old") { #expect(answer.headers["location"] == "/api/items.json", "the redirect Chromium followed points at stubd") }
        }
        for (path, data) in try Self.contents(dir) {
            #expect(data.range(of: Data("k3y-0123456789".utf8)) == nil, "\(path) holds the API key")
        }
    }

    @Test func importingAgainChangesNothingAndAnotherHARGoesBeside() throws {
        let dir = try Self.freshFolder()
        #expect(try Self.importHAR(Self.forward, dir).status == 0)
        let first = try Self.contents(dir)
        let again = try Self.importHAR(Self.forward, dir)
        #expect(again.status == 0, "\(again.error)")
        #expect(again.output.contains("imported 0 of 13 requests"), "\(again.output)")
        #expect(try Self.contents(dir) == first, "a second import of the same HAR rewrote the folder")

        let beside = try Self.importHAR(Self.twoHosts, dir, ["--host", "all"])
        #expect(beside.status == 0, "\(beside.error)")
        let now = try Self.contents(dir)
        for (path, data) in first where path != "stubd.recorded.yml" { #expect(now[path] == data, "\(path) changed") }
        #expect(now["api.weather.test/api/items.json"] != nil && now["cdn.assets.test/logo.png"] != nil, "\(now.keys.sorted())")
        let serve = try ServeProcess(["--stubs", dir.path])
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", serve.baseURL.absoluteString + "/flaky"]).output == "503")
        let proxied = try curl(["-x", serve.baseURL.absoluteString, "http://api.weather.test/data/2.5/weather?q=London&appid=x"])
        #expect(proxied.output == #"{"name": "London", "main": {"temp": 11.5}}"#, "the host's folder answers it through proxy mode")
    }

    @Test func keepTimingMakesTheSlowAnswerSlow() throws {
        let dir = try Self.freshFolder()
        let imported = try Self.importHAR(Self.forward, dir, ["--keep-timing"])
        #expect(imported.status == 0, "\(imported.error)")
        let manifest = try String(contentsOf: dir.appendingPathComponent("stubd.recorded.yml"), encoding: .utf8)
        // The capture's wait was 302 ms (timings.wait).
        #expect(manifest.range(of: #"file: "slow-get-98e3c567-1.json", delay: 3\d\dms"#, options: .regularExpression) != nil, "\(manifest)")
        let serve = try ServeProcess(["--stubs", dir.path])
        let started = Date()
        #expect(try curl([serve.baseURL.absoluteString + "/slow"]).output == #"{"slow":true}"#)
        #expect(Date().timeIntervalSince(started) >= 0.29)
    }
}
