package import Foundation
import StubdEngine

/// A small XML reader for the bodies stubd holds to a spec: elements, attributes, text and CDATA;
/// comments and processing instructions skipped; XML's five predefined entities and numeric character
/// references. Written here rather than taken from FoundationXML (libxml2): StubdCore builds on iOS,
/// macOS and Linux alike without it, and a reader that knows no DTD cannot be made to expand one: a
/// `<!DOCTYPE` is refused, so no entity (a billion laughs, an external file) is ever expanded.
///
/// UTF-8 only. Namespaces are not resolved: names are kept as written (`pet:name`), and
/// `XMLBodyDecoder` matches them by local name.
package struct XMLReader {
    /// An element as read: its name as written, attributes in document order, child elements, and its
    /// own text (CDATA included, between and around its children).
    package struct Element: Sendable, Equatable {
        package struct Attribute: Sendable, Equatable {
            package let name: String
            package let value: String
        }
        package var name: String
        package var attributes: [Attribute] = []
        package var children: [Element] = []
        package var text = ""
        /// Where its start tag opens, for messages.
        package var line = 1
        package var column = 1
    }

    private let bytes: [UInt8]
    private let limits: XMLLimits
    private var at = 0
    /// The last start tag's place: each is counted on from the one before, not from the first byte.
    private var counted = (offset: 0, line: 1, column: 1)

    private init(bytes: [UInt8], limits: XMLLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// The document's root element, or where and why `data` is not a document stubd reads.
    package static func parse(_ data: Data, limits: XMLLimits = .standard) throws(XMLSyntaxError) -> Element {
        guard data.count <= limits.maxBytes else {
            throw XMLSyntaxError(line: 1, column: 1, message: "the document is \(data.count) bytes; stubd reads XML up to \(limits.maxBytes)")
        }
        var reader = XMLReader(bytes: [UInt8](data), limits: limits)
        return try reader.document()
    }

    private mutating func document() throws(XMLSyntaxError) -> Element {
        try checkEncoding()
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
        var open: [Element] = []
        var root: Element?
        while at < bytes.count {
            guard bytes[at] == UInt8(ascii: "<") else {
                let start = at
                let text = try self.text()
                if open.isEmpty {
                    guard text.allSatisfy({ $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) else {
                        throw error(at: start, root == nil ? "text before the root element; an XML document starts with '<'"
                                                           : "text after the root element ends")
                    }
                } else {
                    open[open.count - 1].text += text
                }
                continue
            }
            if starts("<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts("<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts("<![CDATA[") {
                guard !open.isEmpty else { throw error(at: at, "CDATA outside the root element") }
                let start = at + 9
                try skip(past: "]]>", what: "a CDATA section")
                open[open.count - 1].text += String(decoding: bytes[start..<(at - 3)], as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            } else if starts("<!DOCTYPE") {
                throw error(at: at, "a DOCTYPE is refused: stubd reads no DTD and expands none of its entities (one can make a small body huge, or read a file); send the document without it")
            } else if starts("<!") {
                throw error(at: at, "'<!' starts neither a comment nor a CDATA section")
            } else if starts("</") {
                let start = at
                at += 2
                let name = try self.name(what: "an end tag's name")
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { throw error(at: at, "expected '>' to end </\(name)") }
                at += 1
                guard var element = open.popLast() else { throw error(at: start, "</\(name)> closes no element") }
                guard element.name == name else {
                    throw error(at: start, "</\(name)> closes <\(element.name)> (opened at line \(element.line), column \(element.column)); expected </\(element.name)>")
                }
                if !element.children.isEmpty { element.text = element.text.trimmingCharacters(in: .whitespacesAndNewlines) }
                if open.isEmpty { root = element } else { open[open.count - 1].children.append(element) }
            } else {
                let start = at
                at += 1
                let (read, selfClosing) = try startTag(start)
                var element = read
                if open.isEmpty, root != nil { throw error(at: start, "a second root element <\(element.name)>; a document has one") }
                guard open.count < limits.maxDepth else {
                    throw error(at: start, "elements nest deeper than \(limits.maxDepth) levels, which stubd does not read")
                }
                if selfClosing {
                    element.text = ""
                    if open.isEmpty { root = element } else { open[open.count - 1].children.append(element) }
                } else {
                    open.append(element)
                }
            }
        }
        if let unclosed = open.last {
            throw error(at: bytes.count, "the document ends inside <\(unclosed.name)> (opened at line \(unclosed.line), column \(unclosed.column))")
        }
        guard let root else { throw error(at: bytes.count, "no root element: the document is empty") }
        return root
    }

    /// `<name a="1" b='2'>` or `<name/>`, from just past the `<`; `at` ends past the `>`.
    private mutating func startTag(_ start: Int) throws(XMLSyntaxError) -> (Element, selfClosing: Bool) {
        let (line, column) = position(of: start)
        var element = Element(name: try name(what: "an element name after '<'"), line: line, column: column)
        while true {
            let hadSpace = skipSpace()
            guard at < bytes.count else { throw error(at: at, "the document ends inside the start tag <\(element.name)") }
            if bytes[at] == UInt8(ascii: ">") { at += 1; return (element, false) }
            if starts("/>") { at += 2; return (element, true) }
            guard hadSpace else { throw error(at: at, "expected white space, '>' or '/>' in <\(element.name)>") }
            let attributeAt = at
            let name = try self.name(what: "an attribute name in <\(element.name)>")
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { throw error(at: at, "expected '=' after the attribute \(name)") }
            at += 1
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                throw error(at: at, "the value of the attribute \(name) must be quoted")
            }
            let value = try attributeValue(quote: bytes[at])
            guard !element.attributes.contains(where: { $0.name == name }) else {
                throw error(at: attributeAt, "the attribute \(name) appears twice in <\(element.name)>")
            }
            element.attributes.append(Element.Attribute(name: name, value: value))
        }
    }

    private mutating func attributeValue(quote: UInt8) throws(XMLSyntaxError) -> String {
        let start = at
        at += 1
        var value: [UInt8] = []
        while true {
            guard at < bytes.count else { throw error(at: start, "an attribute value that never ends") }
            switch bytes[at] {
            case quote: at += 1; return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"): throw error(at: at, "'<' in an attribute value; write &lt;")
            case UInt8(ascii: "&"): value += try reference()
            // XML §3.3.3: white space in a value reads as a space; written as a reference it is kept.
            case 0x09, 0x0A, 0x0D:
                if !(bytes[at] == 0x0A && at > 0 && bytes[at - 1] == 0x0D) { value.append(0x20) }
                at += 1
            default: try checkCharacter(); value.append(bytes[at]); at += 1
            }
        }
    }

    /// Character data up to the next `<`, references decoded, `\r\n` read as `\n` (XML §2.11).
    private mutating func text() throws(XMLSyntaxError) -> String {
        var text: [UInt8] = []
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") {
            switch bytes[at] {
            case UInt8(ascii: "&"): text += try reference()
            case 0x0D:
                text.append(0x0A)
                at += 1
                if at < bytes.count, bytes[at] == 0x0A { at += 1 }
            default: try checkCharacter(); text.append(bytes[at]); at += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#38;` `&#x26;` as UTF-8; any other name is refused:
    /// only a DTD declares more, and no DTD is read.
    private mutating func reference() throws(XMLSyntaxError) -> [UInt8] {
        let start = at
        guard let semicolon = bytes[at..<min(bytes.count, at + 12)].firstIndex(of: UInt8(ascii: ";")) else {
            throw error(at: start, "'&' starts no reference; write &amp; for a literal '&'")
        }
        let name = String(decoding: bytes[(at + 1)..<semicolon], as: UTF8.self)
        at = semicolon + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        if name.hasPrefix("#") {
            let hex = name.hasPrefix("#x")
            let digits = name.dropFirst(hex ? 2 : 1)
            if !digits.isEmpty, digits.allSatisfy({ hex ? $0.isHexDigit : ("0"..."9").contains($0) }),
               let code = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(code), XMLRenderer.isXMLCharacter(scalar) {
                return Array(String(Character(scalar)).utf8)
            }
            throw error(at: start, "&\(name); names no character XML allows")
        }
        throw error(at: start, "&\(name); is not one of XML's five entities (&lt; &gt; &amp; &quot; &apos;); stubd expands no other, as it reads no DTD")
    }

    private mutating func name(what: String) throws(XMLSyntaxError) -> String {
        let start = at
        while at < bytes.count {
            let b = bytes[at]
            if b >= 0x80 || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || b == UInt8(ascii: "_") || b == UInt8(ascii: ":")
                || (at > start && ((b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "."))) {
                at += 1
            } else {
                break
            }
        }
        guard at > start else { throw error(at: start, "expected \(what)") }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = at
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D { at += 1 }
        return at > start
    }

    private func starts(_ literal: String) -> Bool {
        var i = at
        for byte in literal.utf8 {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
        }
        return true
    }

    private mutating func skip(past end: String, what: String) throws(XMLSyntaxError) {
        let start = at
        let terminator = Array(end.utf8)
        var i = at
        while i + terminator.count <= bytes.count {
            if bytes[i] == terminator[0], bytes[i..<(i + terminator.count)].elementsEqual(terminator) {
                at = i + terminator.count
                return
            }
            i += 1
        }
        throw error(at: start, "\(what) that never ends (no \(end))")
    }

    /// A control character other than tab, line feed and carriage return is no XML character, even
    /// where text may be anything.
    private func checkCharacter() throws(XMLSyntaxError) {
        let b = bytes[at]
        if b < 0x20, b != 0x09, b != 0x0A, b != 0x0D {
            throw error(at: at, "the control character U+\(String(format: "%04X", b)) is not allowed in XML")
        }
    }

    private func checkEncoding() throws(XMLSyntaxError) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return
            case .error: throw error(at: offset, "the document is not UTF-8, the only encoding stubd reads")
            }
        }
    }

    /// A start tag's line and column, counted on from the last one's.
    private mutating func position(of offset: Int) -> (line: Int, column: Int) {
        if offset < counted.offset { counted = (0, 1, 1) }
        counted = Self.count(bytes, from: counted, to: offset)
        return (counted.line, counted.column)
    }

    /// 1-based line and column (in characters) of a byte offset, counted from a known place.
    private static func count(_ bytes: [UInt8], from known: (offset: Int, line: Int, column: Int), to offset: Int) -> (offset: Int, line: Int, column: Int) {
        var (line, column) = (known.line, known.column)
        for byte in bytes[known.offset..<min(offset, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return (offset, line, column)
    }

    private func error(at offset: Int, _ message: String) -> XMLSyntaxError {
        let (_, line, column) = Self.count(bytes, from: (0, 1, 1), to: offset)
        return XMLSyntaxError(line: line, column: column, message: message)
    }
}
