package import Foundation
import StubdEngine

/// The fields of an `application/x-www-form-urlencoded` or `multipart/form-data` request body, in
/// the order sent, before any schema says what they are.
package struct FormBody: Sendable {
    /// One `name=value` of a form, or one part of a multipart body.
    package struct Field: Sendable {
        package let name: String
        package let value: Data
        /// A multipart part's own `Content-Type`; nil in a form, or when the part has none.
        package let contentType: String?
        /// A multipart part with a `filename`: its bytes are a file, never coerced to a number.
        package let isFile: Bool

        package var text: String { String(decoding: value, as: UTF8.self) }
    }

    package let fields: [Field]

    /// `a=1&b=x+y&b=%C3%A9`: `+` is a space and `%XX` a byte, the bytes UTF-8 (HTML's rules). A
    /// `name` without `=` has the empty value; empty pieces (`a=1&&b=2`) are skipped. Throws the
    /// message naming the first piece that is not so encoded.
    package static func urlEncoded(_ body: Data) throws(FormBodyError) -> FormBody {
        var fields: [Field] = []
        for piece in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = piece.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decoded(parts[0]), let value = decoded(parts.count > 1 ? parts[1] : Data()[...]) else {
                let shown = String(decoding: piece.prefix(60), as: UTF8.self)
                throw FormBodyError(message: "the body is not form-encoded: '\(shown)' is not percent-encoded UTF-8")
            }
            fields.append(Field(name: name, value: Data(value.utf8), contentType: nil, isFile: false))
        }
        return FormBody(fields: fields)
    }

    private static func decoded(_ bytes: Data.SubSequence) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "+") {
                out.append(0x20)
            } else if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.endIndex, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2]) else { return nil }
                out.append(hi << 4 | lo)
                i += 2
            } else {
                out.append(b)
            }
            i += 1
        }
        return String(bytes: out, encoding: .utf8)
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    /// RFC 7578: parts between `--BOUNDARY` lines, each named by its `Content-Disposition`. Throws
    /// what is wrong with the framing (no boundary, no closing delimiter, a part without a name).
    package static func multipart(_ body: Data, contentType: String) throws(FormBodyError) -> FormBody {
        guard let boundary = parameter("boundary", of: contentType), !boundary.isEmpty else {
            throw FormBodyError(message: "the Content-Type multipart/form-data has no boundary= parameter, so its parts cannot be told apart")
        }
        if body.isEmpty { return FormBody(fields: []) }
        let delimiter = Data(("--" + boundary).utf8)
        guard var at = body.range(of: delimiter)?.upperBound else {
            throw FormBodyError(message: "the multipart body never writes its boundary line --\(boundary)")
        }
        let crlf = Data("\r\n".utf8)
        let nextDelimiter = Data(("\r\n--" + boundary).utf8)
        var fields: [Field] = []
        while true {
            if body[at...].starts(with: Data("--".utf8)) { return FormBody(fields: fields) }
            // Transport padding, then the line break that ends the delimiter line.
            while at < body.endIndex, body[at] == 0x20 || body[at] == 0x09 { at += 1 }
            guard body[at...].starts(with: crlf) else {
                throw FormBodyError(message: "a boundary line --\(boundary) is not followed by a line break (part \(fields.count + 1))")
            }
            at += 2
            guard let end = body.range(of: nextDelimiter, in: at..<body.endIndex) else {
                throw FormBodyError(message: "the multipart body ends without its closing line --\(boundary)-- (part \(fields.count + 1) is cut short)")
            }
            fields.append(try part(body[at..<end.lowerBound], number: fields.count + 1))
            at = end.upperBound
        }
    }

    private static func part(_ bytes: Data, number: Int) throws(FormBodyError) -> Field {
        let separator = Data("\r\n\r\n".utf8)
        let head: Data, content: Data
        if bytes.starts(with: Data("\r\n".utf8)) {
            (head, content) = (Data(), Data(bytes.dropFirst(2)))
        } else if let split = bytes.range(of: separator) {
            (head, content) = (Data(bytes[bytes.startIndex..<split.lowerBound]), Data(bytes[split.upperBound...]))
        } else {
            throw FormBodyError(message: "part \(number) of the multipart body has no blank line between its headers and its content")
        }
        var disposition: String?, contentType: String?
        for line in String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() {
            case "content-disposition": disposition = value
            case "content-type": contentType = value
            default: break
            }
        }
        guard let disposition, disposition.lowercased().hasPrefix("form-data"), let name = parameter("name", of: disposition) else {
            throw FormBodyError(message: "part \(number) of the multipart body has no Content-Disposition: form-data; name=\"…\" naming its field")
        }
        return Field(name: name, value: content, contentType: contentType, isFile: parameter("filename", of: disposition) != nil)
    }

    /// A header parameter's value (`boundary=abc`, `name="a b"`), quotes and `\` escapes undone.
    static func parameter(_ wanted: String, of header: String) -> String? {
        var rest = Substring(header)
        // The first `;`-separated piece is the value itself (`form-data`, `multipart/form-data`).
        guard let first = rest.firstIndex(of: ";") else { return nil }
        rest = rest[rest.index(after: first)...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            let name = rest.prefix { $0 != "=" && $0 != ";" }
            rest = rest.dropFirst(name.count)
            var value = ""
            if rest.first == "=" {
                rest = rest.dropFirst()
                if rest.first == "\"" {
                    rest = rest.dropFirst()
                    while let c = rest.first, c != "\"" {
                        rest = rest.dropFirst()
                        if c == "\\", let escaped = rest.first { value.append(escaped); rest = rest.dropFirst() } else { value.append(c) }
                    }
                    rest = rest.dropFirst()
                    rest = rest.drop { $0 != ";" }
                } else {
                    let raw = rest.prefix { $0 != ";" }
                    value = raw.trimmingCharacters(in: .whitespaces)
                    rest = rest.dropFirst(raw.count)
                }
            }
            if name.trimmingCharacters(in: .whitespaces).lowercased() == wanted { return value }
        }
        return nil
    }
}
