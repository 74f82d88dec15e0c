import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import Testing

/// Templates against hostile input, over real sockets (issue 23): nesting deep enough to overflow
/// the stack, request values that try to leave a JSON string.
@Suite struct TemplateHardeningTests {
    /// 35,000 nested `{{#if}}`s: overflowed the parser's stack and killed the server (SIGSEGV).
    static let deepTemplate = String(repeating: "{{#if 1}}", count: 35_000) + "deep" + String(repeating: "{{/if}}", count: 35_000)

    @Test func aTemplateNestedTooDeepIsRefusedByTheAdminAPIAndTheServerKeepsServing() async throws {
        let stubs = try TempStubs(["ok.json": #"{"ok": true}"#])
        try await withServer(stubs.url) { server in
            let document = try JSONSerialization.data(withJSONObject: [
                "request": ["path": "/deep"], "response": ["template": true, "body": TemplateHardeningTests.deepTemplate],
            ])
            let r = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/stubs")!, method: "POST",
                                   body: String(decoding: document, as: UTF8.self), headers: ["Content-Type": "application/json"])
            #expect(r.status == 400)
            #expect(r.header("Content-Type")?.hasPrefix("application/problem+json") == true)
            let detail = r.json["detail"] as? String ?? ""
            #expect(detail.contains("blocks nest more than 100 deep"), "\(detail)")
            #expect(detail.contains("at most 100"), "\(detail)")
            #expect(detail.contains("line 1, column "), "\(detail)")
            #expect(try await get(server.baseURL, "/ok.json").status == 200)
            #expect(try await get(server.baseURL, "/__stubd/health").status == 200)
        }
    }

    @Test func aTemplateNestedTooDeepInTheManifestIsALoadErrorWithItsPosition() async throws {
        let stubs = try TempStubs([
            "stubd.yml": """
            routes:
              - request: { path: /deep }
                response:
                  template: true
                  body: "\(TemplateHardeningTests.deepTemplate)"
            """,
            "deep.tmpl.txt": TemplateHardeningTests.deepTemplate,
        ])
        do {
            try await withServer(stubs.url) { _ in Issue.record("a 35,000-deep template loaded") } as Void
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
        try await withServer(fine.url) { server in
            let r = try await get(server.baseURL, "/fine.txt?x=1")
            #expect(r.text == "deep")
        }
    }

    // MARK: Escaping in JSON answers

    /// The README's own pattern, asked with a value that closes the string and adds a key.
    static let injection = "%22%2C%22evil%22%3A1%2C%22z%22%3A%22"

    @Test func aValueInsideAJSONStringIsEscapedForIt() async throws {
        let stubs = try TempStubs([
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
        ])
        try await withServer(stubs.url) { server in
            for path in ["/items/abc", "/file/abc"] {
                let r = try await get(server.baseURL, path + "?x=" + TemplateHardeningTests.injection)
                #expect(r.status == 200)
                let json = try #require(try JSONSerialization.jsonObject(with: r.body) as? [String: Any], "\(path): \(r.text)")
                #expect(json["evil"] == nil, "\(path): \(r.text)")
                #expect(Set(json.keys) == ["id", "x"], "\(path): \(r.text)")
                #expect(json["id"] as? String == "abc")
                #expect((json["x"] as? String)?.hasSuffix(#"","evil":1,"z":""#) == true, "\(path): \(r.text)")
                // A trailing backslash would have escaped the closing quote.
                let slash = try await get(server.baseURL, path + "?x=a%5C")
                let parsed = try #require(try JSONSerialization.jsonObject(with: slash.body) as? [String: Any], "\(path): \(slash.text)")
                #expect((parsed["x"] as? String)?.hasSuffix(#"a\"#) == true, "\(path): \(slash.text)")
            }
            // A JSON content type makes it a JSON answer; {{{…}}} stays raw, and a value outside quotes is written as is.
            let typed = try await get(server.baseURL, "/typed?n=7&x=" + TemplateHardeningTests.injection)
            #expect(typed.text == #"{"x": "\",\"evil\":1,\"z\":\"", "raw": "","evil":1,"z":"", "n": 7}"#, "\(typed.text)")
        }
    }

    @Test func aTextAnswerIsNotEscaped() async throws {
        let stubs = try TempStubs(["echo.tmpl.txt": #"you said "{{request.query.x}}""#])
        try await withServer(stubs.url) { server in
            let r = try await get(server.baseURL, "/echo.txt?x=a%22b%5C")
            #expect(r.text == #"you said "a"b\""#)
        }
    }
}
