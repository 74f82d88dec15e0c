import Testing
@testable import StubdCore

@Suite struct JSONParserTests {
    @Test func parsesNestedValues() throws {
        let value = try JSONParser.parse(#"{"a": [1, 2.5, -3e2, true, null], "b": {"c": "d\u00e9\n"}}"#)
        #expect(value == .object(["a": .array([.number(1), .number(2.5), .number(-300), .bool(true), .null]),
                                  "b": .object(["c": .string("dé\n")])]))
    }

    @Test func reportsLineAndColumnOfAMissingComma() {
        let text = "{\n  \"temp_f\": 76.5\n  \"temp_c\": 24.7\n}"
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        do { _ = try JSONParser.parse(text) } catch {
            #expect(error.line == 3)
            #expect(error.column == 3)
            #expect(error.message.contains("missing comma"))
        }
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "trailing comma"),
        ("[1, 2", 1, 6, "']' is missing"),
        ("{'a': 1}", 1, 2, "double quotes"),
        ("", 1, 1, "empty"),
        ("{\"a\": tru}", 1, 7, "did you mean true"),
        ("{\"a\": 01}", 1, 7, "leading zeros"),
    ])
    func explainsCommonMistakes(text: String, line: Int, column: Int, words: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.line == line, "\(text)")
            #expect(error.column == column, "\(text)")
            #expect(error.message.contains(words), "\(error.message)")
        }
    }

    @Test func serializationIsCanonical() throws {
        let a = try JSONParser.parse(#"{"b": 1, "a": [true]}"#)
        let b = try JSONParser.parse(#"{ "a" : [ true ] , "b" : 1.0 }"#)
        #expect(a == b)
        #expect(a.serialized == #"{"a":[true],"b":1}"#)
    }
}

@Suite struct JSONParserHardeningTests {
    @Test(arguments: [#""\uD800\u0041""#, #""\uD810\uD810""#, #""\uDC00""#, #""\uD800""#, #""\uD800x""#, #"["\uDBFF\uE000"]"#])
    func aLoneOrBrokenSurrogateIsAnError(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test func aSurrogatePairIsOneScalar() throws {
        #expect(try JSONParser.parse(#""\uD83D\uDE00 \u00e9""#) == .string("😀 é"))
    }

    @Test(arguments: ["1e999", "-1e999", "[1e400]"])
    func aNumberPastDoubleIsAnError(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    /// 400k escapes took 35 s when each was appended to a String; linear now. Not timed here:
    /// the figure is in the note. This only checks a big escaped body comes back exact.
    @Test func manyEscapesDecodeExactly() throws {
        let text = "\"" + String(repeating: #"\u00e9\n"#, count: 200_000) + "\""
        guard case .string(let s) = try JSONParser.parse(text) else { Issue.record("not a string"); return }
        #expect(s.unicodeScalars.count == 400_000)
        #expect(s.hasPrefix("é\né\n"))
    }
}

@Suite struct YAMLAnchorScanTests {
    @Test(arguments: [
        "appid: \"*\"\nroutes: [\"GET /api/{key}/**\"]",
        "path: /api/**\nbody: a & b\nx: 2 * 3",
        "# a comment with *star and &amp\nk: v # trailing *x",
        "body: |\n  *bold* and &amp\n  - *item\nnext: 1",
        "{\"request\": {\"path\": \"/a\"}, \"response\": {\"body\": \"*x &y\"}}",
        "q: 'it''s *not* an alias'",
        "- >-\n    &folded text\n- plain",
    ])
    func leavesTextThatOnlyLooksLikeAnAliasAlone(text: String) {
        #expect(YAMLAnchors.first(in: text) == nil, "\(text)")
    }

    @Test(arguments: [
        ("a: &x 1\nb: *x", 1, 4, false),
        ("list: [1, *x]", 1, 11, true),
        ("k: !!str &t v", 1, 10, false),
        ("body: |\n  text\nb: *z", 3, 4, true),
    ])
    func findsAnchorsAndAliases(text: String, line: Int, column: Int, isAlias: Bool) {
        let found = YAMLAnchors.first(in: text)
        #expect(found?.line == line && found?.column == column && found?.isAlias == isAlias, "\(text): \(String(describing: found))")
    }
}
