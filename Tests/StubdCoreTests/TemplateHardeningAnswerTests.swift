import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Templates against hostile input (issue 23), answered by the engine with no socket (`EngineHarness`;
/// these ran through a real server before issue 59): nesting deep enough to overflow the stack,
/// request values that try to leave a JSON string, answers that render past the cap.
/// TemplateHardeningTests in StubdServerTests keeps what needs one: a delay in real time, a render
/// holding a worker thread.
@Suite struct TemplateHardeningAnswerTests {
    /// 35,000 nested `{{#if}}`s: overflowed the parser's stack and killed the server (SIGSEGV).
    static let deepTemplate = String(repeating: "{{#if 1}}", count: 35_000) + "deep" + String(repeating: "{{/if}}", count: 35_000)

    /// A runtime stub nested too deep is the admin call's 400 with its position, and the engine goes
    /// on answering (the admin API driven without a socket).
    @Test func aTemplateNestedTooDeepIsRefusedByTheAdminAPIAndTheServerKeepsServing() throws {
        let harness = try EngineHarness(TempStubs(["ok.json": #"{"ok": true}"#]))
        let document = try JSONSerialization.data(withJSONObject: [
            "request": ["path": "/deep"], "response": ["template": true, "body": Self.deepTemplate],
        ])
        let r = harness.admin(.post, "stubs", body: String(decoding: document, as: UTF8.self))
        #expect(r.status == 400)
        #expect(r.header("Content-Type")?.hasPrefix("application/problem+json") == true)
        let detail = r.json["detail"] as? String ?? ""
        #expect(detail.contains("blocks nest more than 100 deep"), "\(detail)")
        #expect(detail.contains("at most 100"), "\(detail)")
        #expect(detail.contains("line 1, column "), "\(detail)")
        #expect(harness.answer("/ok.json").status == 200)
        #expect(harness.admin(.get, "health").status == 200)
    }

    /// Nested too deep in the manifest or in a file, a template is a load error at its position; 100
    /// levels, the most allowed, load and render (the catalog loaded as the server loads it).
    @Test func aTemplateNestedTooDeepInTheManifestIsALoadErrorWithItsPosition() throws {
        let stubs = try TempStubs([
            "stubd.yml": """
            routes:
              - request: { path: /deep }
                response:
                  template: true
                  body: "\(Self.deepTemplate)"
            """,
            "deep.tmpl.txt": Self.deepTemplate,
        ])
        do {
            _ = try EngineHarness(stubs)
            Issue.record("a 35,000-deep template loaded")
        } catch let error as CatalogLoadError {
            let inline = try #require(error.problems.first { $0.file == "stubd.yml" })
            #expect(inline.location == "stubd.yml:5:\(14 + 100 * 9)", "\(inline)")
            #expect(inline.message.contains("blocks nest more than 100 deep"))
            #expect(inline.hint?.contains("close some before opening more") == true)
            let file = try #require(error.problems.first { $0.file == "deep.tmpl.txt" })
            #expect(file.location == "deep.tmpl.txt:1:\(1 + 100 * 9)", "\(file)")
        }
        // 100 levels, the most allowed, load and render.
        let fine = try TempStubs(["fine.tmpl.txt": String(repeating: "{{#if request.query.x}}", count: 100) + "deep" + String(repeating: "{{/if}}", count: 100)])
        let r = try EngineHarness(fine).answer("/fine.txt?x=1")
        #expect(r.text == "deep")
    }

    // MARK: Escaping in JSON answers

    /// The README's own pattern, asked with a value that closes the string and adds a key: as the
    /// front hands it to the engine, percent-decoded (the server's test sent `%22%2C%22evil%22…`).
    static let injection = #"","evil":1,"z":""#

    /// A request value put inside a JSON string is escaped for it, in a manifest's and a file's
    /// template alike; `{{{…}}}` stays raw, and a value outside quotes is written as is.
    @Test func aValueInsideAJSONStringIsEscapedForIt() throws {
        let harness = try EngineHarness(TempStubs([
            "stubd.yml": """
            routes:
              - request: { path: "/items/{id}" }
                response: { template: true, json: { id: "{{request.path.id}}", x: "{{request.query.x}}" } }
              - request: { path: "/typed" }
                response:
                  template: true
                  headers: { Content-Type: application/vnd.api+json }
                  body: '{"x": "{{request.query.x}}", "raw": "{{{request.query.x}}}", "n": {{request.query.n}}}'
            """,
            "file/{id}.tmpl.json": #"{"id": "{{request.path.id}}", "x": "a \"quoted\" {{request.query.x}}"}"#,
        ]))
        for path in ["/items/abc", "/file/abc"] {
            let r = harness.answer(path + "?x=" + Self.injection)
            #expect(r.status == 200)
            let json = try #require(try JSONSerialization.jsonObject(with: r.body) as? [String: Any], "\(path): \(r.text)")
            #expect(json["evil"] == nil, "\(path): \(r.text)")
            #expect(Set(json.keys) == ["id", "x"], "\(path): \(r.text)")
            #expect(json["id"] as? String == "abc")
            #expect((json["x"] as? String)?.hasSuffix(#"","evil":1,"z":""#) == true, "\(path): \(r.text)")
            // A trailing backslash would have escaped the closing quote.
            let slash = harness.answer(path + #"?x=a\"#)
            let parsed = try #require(try JSONSerialization.jsonObject(with: slash.body) as? [String: Any], "\(path): \(slash.text)")
            #expect((parsed["x"] as? String)?.hasSuffix(#"a\"#) == true, "\(path): \(slash.text)")
        }
        // A JSON content type makes it a JSON answer; {{{…}}} stays raw, and a value outside quotes is written as is.
        let typed = harness.answer("/typed?n=7&x=" + Self.injection)
        #expect(typed.text == #"{"x": "\",\"evil\":1,\"z\":\"", "raw": "","evil":1,"z":"", "n": 7}"#, "\(typed.text)")
    }

    /// A text answer takes a request value as it is: no JSON escaping.
    @Test func aTextAnswerIsNotEscaped() throws {
        let harness = try EngineHarness(TempStubs(["echo.tmpl.txt": #"you said "{{request.query.x}}""#]))
        let r = harness.answer(#"/echo.txt?x=a"b\"#)
        #expect(r.text == #"you said "a"b\""#)
    }

    // MARK: Amplification

    static let list = TemplateAmplification.list

    static func numbers(_ count: Int) -> String { TemplateAmplification.numbers(count) }

    /// An answer that renders past `maxRenderedBytes` is a 500 naming the cap, and the journal says
    /// rendering stopped: a loop (left to the front to render) and plain values (rendered in place) alike.
    @Test func anAnswerRenderedPastTheCapIsA500NamingItAndTheJournalSaysWhy() throws {
        let harness = try EngineHarness(TempStubs(["stubd.yml": Self.list]), maxRenderedBytes: 10_000)
        let small = harness.answer("/list", method: .post, body: "[1, 2]")
        #expect(small.status == 200)
        #expect(small.text == "item 1 item 2 ")
        // A loop (rendered off the worker) and plain values (rendered in place) alike.
        for (path, body) in [("/list", Self.numbers(2_000)), ("/echo", String(repeating: "y", count: 1_000))] {
            let r = harness.answer(path, method: .post, body: body)
            #expect(r.status == 500, "\(path)")
            #expect(r.header("Content-Type")?.hasPrefix("application/problem+json") == true)
            let detail = r.json["detail"] as? String ?? ""
            #expect(detail.contains("more than 10000 bytes"), "\(detail)")
            #expect(detail.contains("--max-render"), "\(detail)")
            let journal = harness.admin(.get, "requests?limit=1").json["requests"] as? [[String: Any]]
            let entry = try #require(journal?.last)
            #expect(entry["path"] as? String == path)
            #expect(entry["status"] as? Int == 500)
            #expect((entry["notes"] as? [String])?.contains { $0.contains("rendering stopped") && $0.contains("10000") } == true, "\(entry)")
        }
        #expect(harness.answer("/list", method: .post, body: "[3]").text == "item 3 ")
    }

    /// Three loops over 1,000 items that write nothing: a billion passes, stopped by the cap (each
    /// pass counts), not run for minutes.
    @Test func aLoopThatWritesNothingStillStopsAtTheCap() throws {
        let harness = try EngineHarness(TempStubs(["stubd.yml": Self.list]), maxRenderedBytes: 1 << 20)
        let started = Date()
        let r = harness.answer("/silent", method: .post, body: Self.numbers(1_000))
        #expect(r.status == 500)
        #expect((r.json["detail"] as? String)?.contains("more than \(1 << 20) bytes") == true, "\(r.text)")
        #expect(Date().timeIntervalSince(started) < bound(30))
    }
}
