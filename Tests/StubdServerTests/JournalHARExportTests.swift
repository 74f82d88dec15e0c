import Foundation
import StubdTestSupport
import Testing

/// `stubd export har --url`: a running server's journal as a HAR with the bodies its client got, read
/// by a HAR tool from PyPI (haralyzer), and imported again (`stubd import har`) so the same client
/// gets the same answers from the imported folder.
@Suite struct JournalHARExportTests {
    /// haralyzer reads every entry (its dates through dateutil) and prints method, status, mime type
    /// and the body as it decodes it, one JSON line per entry.
    static func readWithHaralyzer(_ har: URL) throws -> [[String: Any]] {
        try requirePython(modules: "haralyzer")
        let script = """
            import base64, json, sys
            from haralyzer import HarParser, HarEntry
            data = json.load(open(sys.argv[1]))
            HarParser(data)
            for raw in data["log"]["entries"]:
                e = HarEntry(raw)
                e.startTime  # parsed: startedDateTime must be ISO 8601
                c = e.response.get("content", {})
                body = base64.b64decode(c["text"]) if c.get("encoding") == "base64" else c.get("text", "").encode()
                print(json.dumps({"method": e.request.method, "url": e.url, "status": e.status,
                                  "mimeType": e.response.mimeType, "size": len(body), "time": e.time,
                                  "truncated": bool(c.get("_truncated"))}))
            """
        let result = try run(testPython, ["-c", script, har.path])
        #expect(result.status == 0, "haralyzer could not read the HAR: \(result.error)")
        return result.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Record a live API (Fixtures/HAR/upstream.py) with client.sh, serve the recording, run client.sh
    /// against it, export the session's journal, import that HAR into a fresh folder and serve it:
    /// every exported request, sent again in order, gets the status, body and content type the
    /// client got the first time, and client.sh the same statuses.
    @Test func aSessionExportedAndImportedGivesTheClientTheSameAnswers() throws {
        let recorded = try HARImportTests.freshFolder()
        try HARExportTests.record(into: recorded)
        let first = try ServeProcess(["--stubs", recorded.path])
        let client = HARImportTests.fixtures.appendingPathComponent("client.sh").path
        let statuses = try run("/bin/sh", [client, first.baseURL.absoluteString], environment: ["PATH": "/usr/bin:/bin", "CURL_PROXY": ""])
        #expect(statuses.output.split(separator: "\n") == HARImportTests.clientStatuses, "\(statuses.output)")

        let har = recorded.deletingLastPathComponent().appendingPathComponent("journal.har")
        let exported = try run(stubdBinary.path, ["export", "har", "--url", first.baseURL.absoluteString, "-o", har.path])
        #expect(exported.status == 0, "\(exported.error)")
        let text = try String(contentsOf: har, encoding: .utf8)
        for secret in HARImportTests.secrets { #expect(!text.contains(secret), "\(secret) reached the HAR") }
        let read = try Self.readWithHaralyzer(har)
        #expect(read.count == 13, "client.sh's 12 commands and the redirect followed: \(read.count)")
        #expect(read.contains { $0["mimeType"] as? String == "image/png" && ($0["size"] as? Int ?? 0) > 0 }, "the PNG, base64: \(read)")

        let imported = try HARImportTests.freshFolder()
        let result = try HARImportTests.importHAR(har, imported)
        #expect(result.status == 0, "\(result.error)")
        let second = try ServeProcess(["--stubs", imported.path])
        var withBodies = 0
        for entry in try HARImportTests.entries(har) {
            let request = entry["request"] as! [String: Any], response = entry["response"] as! [String: Any]
            let what = "\(request["method"]!) \(request["url"]!)"
            let expected = HARImportTests.body(entry)
            // In a session of its own: client.sh, below, starts the sequences again in the default one.
            let replayed = try HARImportTests.replay(entry, to: second.baseURL.appendingPathComponent("__s/replay"))
            #expect(replayed.status == response["status"] as? Int, "\(what)")
            #expect(replayed.body == expected, "\(what): \(String(decoding: replayed.body, as: UTF8.self).prefix(80))")
            let contentType = (response["headers"] as! [[String: String]]).first { $0["name"]!.lowercased() == "content-type" }?["value"]
            if let contentType, !expected.isEmpty { #expect(replayed.headers["content-type"] == contentType, "\(what)") }
            if !expected.isEmpty { withBodies += 1 }
        }
        #expect(withBodies >= 9, "the answers' bodies came through the HAR: \(withBodies)")
        let again = try run("/bin/sh", [client, second.baseURL.absoluteString], environment: ["PATH": "/usr/bin:/bin", "CURL_PROXY": ""])
        #expect(again.output.split(separator: "\n") == HARImportTests.clientStatuses, "\(again.output)")
    }

    /// One session's journal only; a body over 64 KiB cut and marked; a request's credentials, its
    /// JSON password and a `--secret` value scrubbed from headers, query and both bodies.
    @Test func aSessionsHARIsScrubbedAndCutAt64KiB() throws {
        let big = String(repeating: "0123456789abcdef", count: 100 * 64)  // 100 KiB
        let serve = try ServeProcess(serving: [
            "big.txt": big,
            "stubd.yml": """
                routes:
                  - request: {method: POST, path: /login}
                    response: {status: 200, template: true, headers: {Content-Type: application/json},
                               body: '{"echo": "{{request.body}}", "auth": "{{request.headers.Authorization}}"}'}
                """,
        ], ["--proxy", "http://127.0.0.1:9", "--secret", "key=k3y-0123456789"])  // serve takes --secret only when it forwards
        let session = serve.baseURL.appendingPathComponent("__s/t1")
        _ = try run("/usr/bin/curl", ["-s", "-o", "/dev/null", serve.baseURL.appendingPathComponent("big.txt").absoluteString])
        let big1 = try run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", session.appendingPathComponent("big.txt").absoluteString + "?q=k3y-0123456789"])
        #expect(big1.output == "200")
        let login = try run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer tok-abcdef123456", "-H", "Content-Type: application/json",
                                              "-d", #"{"user": "ann", "password": "hunter2-hunter2", "note": "k3y-0123456789"}"#,
                                              session.appendingPathComponent("login").absoluteString])
        #expect(login.output.contains("tok-abcdef123456"), "the template echoes the token to the client: \(login.output)")

        let har = try TempStubs([:]).url.appendingPathComponent("t1.har")
        let exported = try run(stubdBinary.path, ["export", "har", "--url", serve.baseURL.absoluteString, "--session", "t1", "-o", har.path])
        #expect(exported.status == 0, "\(exported.error)")
        #expect(exported.error.contains("2 requests of session t1"), "\(exported.error)")
        let text = try String(contentsOf: har, encoding: .utf8)
        for secret in ["tok-abcdef123456", "hunter2-hunter2", "k3y-0123456789"] { #expect(!text.contains(secret), "\(secret) reached the HAR") }
        let entries = try HARImportTests.entries(har)
        try #require(entries.count == 2)
        let content = (entries[0]["response"] as! [String: Any])["content"] as! [String: Any]
        #expect((content["text"] as? String)?.utf8.count == 64 * 1024)
        #expect(content["size"] as? Int == big.utf8.count)
        #expect(content["_truncated"] as? Bool == true)
        #expect((content["comment"] as? String)?.contains("64 KiB") == true, "\(content)")
        let post = (entries[1]["request"] as! [String: Any])["postData"] as! [String: Any]
        #expect((post["text"] as? String)?.contains(#""user": "ann""#) == true, "the body is there, scrubbed: \(post)")
        let answer = ((entries[1]["response"] as! [String: Any])["content"] as! [String: Any])["text"] as? String ?? ""
        #expect(answer.contains(#""auth": "<redacted>""#) && answer.contains("<key>"), "the echoed token and --secret value: \(answer)")
        let read = try Self.readWithHaralyzer(har)
        #expect(read.map { $0["status"] as? Int } == [200, 200])
        #expect(read.first?["truncated"] as? Bool == true)
    }
}
