import HTTPTypes
import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// What a template cannot do to the server or to the answer's JSON (issue 23).
@Suite struct TemplateBoundsTests {
    @Test func subexpressionsNestedTooDeepAreALoadError() throws {
        let stubs = try TempStubs(["p.tmpl.txt": "{{json " + String(repeating: "(eq 1 ", count: 20_000) + String(repeating: ")", count: 20_000) + "}}"])
        let problems = stubs.problems()
        #expect(problems.count == 1)
        let p = try #require(problems.first)
        #expect(p.message.contains("(subexpressions) nest more than 100 deep"), "\(p)")
        #expect(p.location == "p.tmpl.txt:1:\(8 + 100 * 6)", "\(p)")
    }

    static func render(_ text: String, json: Bool, query: [QueryItem]) throws -> String {
        let template = try TemplateParser.parse(text, parameters: [], json: json)
        var renderer = TemplateRenderer(TemplateInput(request: RequestHead(method: .get, path: "/", query: query), parameters: [:],
                                                      now: Date(timeIntervalSince1970: 0), hits: 1, random: { 4 }))
        return renderer.render(template)
    }

    @Test(arguments: [
        // In a string: escaped; outside one: as is; triple braces: raw.
        (#"{"a": "{{request.query.v}}"}"#, #"{"a": "q\"b\\\n"}"#),
        (#"{"a": {{request.query.v}}}"#, "{\"a\": q\"b\\\n}"),
        (#"{"a": "{{{request.query.v}}}"}"#, "{\"a\": \"q\"b\\\n\"}"),
        // An escaped quote does not end the string; an escaped backslash before the quote does.
        (#"{"a": "say \"{{request.query.v}}\"", "b": "\\", "c": {{request.query.v}}}"#, "{\"a\": \"say \\\"q\\\"b\\\\\\n\\\"\", \"b\": \"\\\\\", \"c\": q\"b\\\n}"),
        // Each branch of a block starts where the block did.
        (#"{{#if request.query.v}}"{{request.query.v}}"{{else}}"{{request.query.v}}"{{/if}}{{request.query.v}}"#, "\"q\\\"b\\\\\\n\"q\"b\\\n"),
        // {{json}} in a string is a string of JSON; outside, JSON.
        (#"["{{json request.query.v}}", {{json request.query.v}}]"#, #"["\"q\\\"b\\\\\\n\"", "q\"b\\\n"]"#),
    ] as [(String, String)])
    func aJSONAnswerEscapesValuesInsideItsStrings(template: String, expected: String) throws {
        let value = "q\"b\\\n"
        #expect(try TemplateBoundsTests.render(template, json: true, query: queryItems(["v": value])) == expected)
    }

    @Test func anotherAnswerIsWrittenAsIs() throws {
        #expect(try TemplateBoundsTests.render(#""{{request.query.v}}""#, json: false, query: queryItems(["v": "a\"b"])) == #""a"b""#)
    }

    @Test(arguments: [
        ("a.tmpl.json", true), ("a.tmpl.txt", false),
    ])
    func aConventionTemplateIsJSONByItsExtension(file: String, escaped: Bool) throws {
        let catalog = try TempStubs([file: #""{{request.query.v}}""#]).load()
        let template = try #require(catalog.routes.first?.responses.first?.template?.body)
        guard case .value(_, _, let inJSONString)? = template.nodes.dropFirst().first else { Issue.record("\(template.nodes)"); return }
        #expect(inJSONString == escaped)
    }
}

extension TemplateBoundsTests {
    /// An input scripts/fuzz found trapping with "Index out of range" (a fresh-clone CI run of 5c76d77):
    /// the template, then NUL-separated the query, header, body and `{id}` the fuzz target renders it with.
    @Test func theFuzzedTemplateThatTrappedRendersOrIsRefused() throws {
        let bytes = try #require(Data(base64Encoded: "e3tub3cgb2Zmc2V0PScwIGRheXMnIGZvcm1hdD1lcX19e3sjdW5sZXNzIHJlcXVlc3QuaGVhZGVycy5YLVZhbHVlfX1le3svdW5sZXNzfX0ge3tqc29uIChqc29uUGF0aCByZXF1ZXN0LmJvZHkgJyQuYScpfX0ge3tyZXF1ZXN0LnVybH19IHt7cmVxdWVzdC5tZXRob2R9fSB7e3JlcXVlc3QucGF0aC5bMV19fSB7eyEgbm90ZSB9fVx7e2xpdGVyYWx9fQBtZXRyaWMAAHsiYSI6IHsiYiI6IFsxLCAyLjUsIG51bGwsIHRydWVdfX0ANw=="))
        let parts = bytes.split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        func part(_ i: Int) -> String { i < parts.count ? parts[i] : "" }
        let request = RequestHead(method: .post, path: "/items/\(part(4))", query: [QueryItem(name: "q", value: part(1))],
                                  headers: HTTPFields([HTTPField(name: HTTPField.Name("X-Value")!, value: part(2))]), body: Data(part(3).utf8))
        for json in [true, false] {
            guard let template = try? TemplateParser.parse(parts[0], parameters: ["id"], json: json) else { continue }
            var renderer = TemplateRenderer(TemplateInput(request: request, parameters: ["id": part(4)], now: Date(timeIntervalSince1970: 1_472_529_600),
                                                          hits: 1, random: { 4 }), limit: 1 << 20)
            _ = renderer.render(template)
        }
    }
}

extension TemplateBoundsTests {
    @Test(arguments: ["{{now format=eq}}", "{{json eq}}", "{{#if jsonPath}}x{{/if}}"])
    func aHelperThatNeedsArgumentsIsNotAValueOnItsOwn(text: String) throws {
        let problems = try TempStubs(["p.tmpl.txt": text]).problems()
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("argument") == true, "\(problems)")
    }

    @Test func aHelperThatTakesNothingIsStillAValue() throws {
        #expect(try TemplateBoundsTests.render("{{json hits}}", json: false, query: []) == "1")
    }
}
