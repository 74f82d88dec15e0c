import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine

/// The XML reader stubd holds XML bodies to a spec with (issue 58 item 5): no DTD, bounded, and every
/// malformed input a message with its line and column, never a crash. Before: no reader; an XML body
/// was taken on trust.
@Suite struct XMLReaderTests {
    func read(_ text: String, limits: XMLLimits = .standard) throws(XMLSyntaxError) -> XMLReader.Element {
        try XMLReader.parse(Data(text.utf8), limits: limits)
    }

    func failure(_ text: String, limits: XMLLimits = .standard) -> XMLSyntaxError? {
        do { _ = try read(text, limits: limits); return nil } catch { return error }
    }

    @Test func elementsAttributesTextCDATAAndReferences() throws {
        let root = try read("""
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment --><?app skip?>
            <pet id='7' name="R&amp;R">
              <note><![CDATA[<b>&amp;</b>]]> &lt;&#65;&#x42;&quot;&apos;&gt;</note>
              <empty/>
            </pet>
            """)
        #expect(root.name == "pet" && root.attributes.map(\.name) == ["id", "name"] && root.attributes[1].value == "R&R")
        #expect(root.children.map(\.name) == ["note", "empty"])
        #expect(root.children[0].text == "<b>&amp;</b> <AB\"'>")
        #expect(root.children[1].line == 5 && root.children[1].column == 3)
    }

    @Test func aDoctypeIsRefusedSoNoEntityIsExpanded() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>
            <lolz>&lol2;</lolz>
            """
        let error = failure(laughs)
        #expect(error?.line == 2 && error?.column == 1, "\(String(describing: error))")
        #expect(error?.message.contains("a DOCTYPE is refused") == true)
        #expect(failure("<a>&lol;</a>")?.description == "&lol; is not one of XML's five entities (&lt; &gt; &amp; &quot; &apos;); stubd expands no other, as it reads no DTD at line 1, column 4")
        #expect(failure("<a>&#0;</a>")?.message == "&#0; names no character XML allows")
    }

    @Test func depthAndSizeAreBounded() {
        let limits = XMLLimits(maxBytes: 1000, maxDepth: 8)
        #expect(failure(String(repeating: "<a>", count: 8) + String(repeating: "</a>", count: 8), limits: limits) == nil)
        let deep = failure(String(repeating: "<a>", count: 9) + String(repeating: "</a>", count: 9), limits: limits)
        #expect(deep?.message == "elements nest deeper than 8 levels, which stubd does not read" && deep?.column == 25)
        #expect(failure("<a>" + String(repeating: "x", count: 1000) + "</a>", limits: limits)?.message == "the document is 1007 bytes; stubd reads XML up to 1000")
        // The standard bound, as deep as JSON is read; a million levels is refused, not a crash.
        #expect(failure(String(repeating: "<a>", count: 1_000_000))?.message.contains("deeper than 512") == true)
    }

    @Test(arguments: [
        ("<a><b></a>", "</a> closes <b> (opened at line 1, column 4); expected </b> at line 1, column 7"),
        ("<a>\n  <b>\n</a", "expected '>' to end </a at line 3, column 4"),
        ("<a x=1/>", "the value of the attribute x must be quoted at line 1, column 6"),
        ("<a x='1' x='2'/>", "the attribute x appears twice in <a> at line 1, column 10"),
        ("<a>\n<b>", "the document ends inside <b> (opened at line 2, column 1) at line 2, column 4"),
        ("<a/><b/>", "a second root element <b>; a document has one at line 1, column 5"),
        ("hello", "text before the root element; an XML document starts with '<' at line 1, column 1"),
        ("", "no root element: the document is empty at line 1, column 1"),
        ("<a>AT&T</a>", "'&' starts no reference; write &amp; for a literal '&' at line 1, column 6"),
        ("<a>é\u{1}</a>", "the control character U+0001 is not allowed in XML at line 1, column 5"),
        ("<a><!-- never", "a comment that never ends (no -->) at line 1, column 4"),
        ("<1a/>", "expected an element name after '<' at line 1, column 2"),
    ])
    func malformedInputSaysWhatAndWhere(text: String, message: String) {
        #expect(failure(text)?.description == message)
    }

    @Test func bytesThatAreNotUTF8AreRefusedWhereTheyAre() {
        var data = Data("<a>\nok ".utf8)
        data.append(0xFF)
        data.append(contentsOf: Array("</a>".utf8))
        #expect(throws: XMLSyntaxError(line: 2, column: 4, message: "the document is not UTF-8, the only encoding stubd reads")) {
            try XMLReader.parse(data)
        }
    }

    /// Random bytes and cut-off documents: an error or a document, never a trap.
    @Test func truncatedAndShuffledInputNeverCrashes() {
        let document = #"<?xml version="1.0"?><p:pet xmlns:p="u" id="1"><name>R&amp;R</name><![CDATA[x]]><!-- c --><tags><tag/></tags></p:pet>"#
        let bytes = Array(document.utf8)
        for end in 0...bytes.count { _ = try? XMLReader.parse(Data(bytes[0..<end])) }
        var random = SeededRandom(seed: "xml reader")
        for _ in 0..<2000 {
            var mutated = bytes
            for _ in 0..<3 { mutated[Int(random.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: random.next()) }
            _ = try? XMLReader.parse(Data(mutated))
        }
    }
}
