import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Load errors name the file, line and column, and what to write instead.
@Suite struct TemplateLoadErrorTests {
    @Test(arguments: [
        ("a.tmpl.json", "{\n  \"x\": \"{{nwo}}\"\n}", 2, 11, "unknown value or helper 'nwo'", "did you mean 'now'?"),
        ("a.tmpl.json", "{\"x\": \"{{randomint lower=1 upper=2}}\"}", 1, 10, "unknown helper 'randomint'", "did you mean 'randomInt'?"),
        ("a.tmpl.json", "{{#each request.query}}\n{{this}}", 1, 1, "{{#each}} is never closed", "add {{/each}}"),
        ("a.tmpl.json", "{{#if request.body}}x{{/each}}", 1, 22, "{{/each}} closes {{#if}}", "{{/if}}"),
        ("api/{key}/f/{zip}.tmpl.json", "{\"z\": \"{{request.path.zp}}\"}", 1, 10, "the route's path has no {zp}", "did you mean request.path.zip?"),
        ("a.tmpl.json", "{{now timezone='America/New_Yrok'}}", 1, 3, "unknown timezone 'America/New_Yrok'", "America/New_York"),
        ("a.tmpl.json", "{{now offset='tomorrow'}}", 1, 3, "offset 'tomorrow' is not an amount and a unit", "1 days"),
        ("a.tmpl.json", "{{request.qurey.q}}", 1, 3, "a request has no 'qurey'", "did you mean 'request.query'?"),
        ("a.tmpl.json", "{{#whenever x}}{{/whenever}}", 1, 1, "unknown block helper '#whenever'", "blocks:"),
        ("a.tmpl.json", "{{json}}", 1, 3, "'json' takes 1 argument, got 0", "{{json value}}"),
        // A tag ending at a hash argument's `=` read past the end of the tag's text (found by FuzzTemplate).
        ("a.tmpl.json", "{{now offset=}}", 1, 7, "'offset=' has no value", "offset='…'"),
    ] as [(String, String, Int, Int, String, String)])
    func aBrokenTemplateIsALoadErrorWithItsPosition(file: String, text: String, line: Int, column: Int, message: String, hint: String) throws {
        let stubs = try TempStubs([file: text])
        let problems = stubs.problems()
        #expect(problems.count == 1)
        let p = try #require(problems.first)
        #expect(p.file == file)
        #expect(p.line == line)
        #expect(p.column == column)
        #expect(p.message.contains(message), "\(p)")
        #expect(p.hint?.contains(hint) == true, "\(p)")
    }

    @Test func anInlineTemplatesErrorIsPlacedInTheManifest() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: "/a/{id}" }
                response:
                  template: true
                  body: "id {{request.path.idd}}"
            """])
        let p = try #require(stubs.problems().first)
        #expect(p.file == "stubd.yml")
        #expect(p.line == 5)
        #expect(p.message.contains("request.path.idd"))
    }

    /// A `json:` template is serialized before it is parsed; each problem is still placed in the YAML
    /// string it was written in (plain, quoted with escapes, a block), and every one is reported.
    @Test func everyProblemOfAJSONTemplateIsPlacedWhereItWasWritten() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: "/w/{zip}" }
                response:
                  template: true
                  headers: { X-Zip: "{{request.path.zp}}" }
                  json:
                    zip: "{{request.path.zp}}"
                    date: "{{now format='yyyy-MM-dd' tz='UTC'}}"
                    list:
                      - "{{#each request.query}}{{this}}{{/if}}"
                    note: 'it''s {{hitz}}'
                    raw: |
                      line one
                        {{request.bdy}}
            """])
        let problems = stubs.problems()
        let places = problems.map { "\($0.line ?? 0):\($0.column ?? 0)" }
        #expect(Set(places) == ["5:28", "7:17", "8:18", "10:45", "11:24", "14:15"], "\(problems)")
        #expect(problems.count == 6, "\(problems)")
        #expect(problems.contains { $0.line == 10 && $0.message == "template: {{/if}} closes {{#each}} opened at 10:14" }, "\(problems)")
        #expect(problems.contains { $0.line == 8 && $0.message.contains("'now' has no option 'tz'") }, "\(problems)")
        #expect(problems.contains { $0.line == 5 && $0.message.contains("template in header X-Zip: request.path.zp") }, "\(problems)")
    }

    @Test func everyProblemOfATemplateFileIsReported() throws {
        let problems = try TempStubs(["a/{id}.tmpl.json": """
            {
              "a": "{{nwo}}",
              "b": [{{#each request.query}}"{{this}}"{{/each}}],
              "c": "{{request.path.idd}}", "d": "{{#if x}}{{else}}{{else}}{{/if}}"
            }
            """]).problems()
        let places = problems.map { "\($0.line ?? 0):\($0.column ?? 0)" }
        #expect(places == ["2:11", "4:11", "4:44", "4:55"], "\(problems)")
    }

    @Test func aQuotedBodysProblemIsPlacedPastItsQuoteAndEscapes() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /a }
                response:
                  template: true
                  body: "say \\"hi\\" {{nwo}}"
            """])
        let p = try #require(stubs.problems().first)
        #expect(p.line == 5)
        #expect(p.column == 27, "\(p)")
    }

    @Test func withoutTemplateTheBracesAreServedAsWritten() throws {
        let catalog = try TempStubs(["a.json": #"{"x": "{{request.path.nothing}}"}"#]).load()
        #expect(catalog.routes.first?.responses.first?.template == nil)
    }

    @Test func escapedBracesAndCommentsRender() throws {
        let template = try TemplateParser.parse(#"\{{not}} {{! a comment }}{{!-- {{x}} --}}{{request.method}}"#, parameters: [])
        var renderer = TemplateRenderer(TemplateInput(request: RequestHead(method: .put, path: "/"), parameters: [:],
                                                      now: Date(timeIntervalSince1970: 0), hits: 1, random: { 4 }))
        #expect(renderer.render(template) == "{{not}} PUT")
    }
}
