import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

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
