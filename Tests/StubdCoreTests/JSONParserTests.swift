import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

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
