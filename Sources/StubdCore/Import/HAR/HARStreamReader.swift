import Foundation
import StubdEngine

/// Walks a HAR file from disk without holding it: `log.entries` is handed out one entry at a time
/// (its bytes and the line it starts on), everything else is skipped but `log.creator`. Memory is
/// the largest entry, not the file, so a 1 GB capture imports; an entry over `maxEntryBytes` is
/// refused as it is read. Only the structure around the entries is checked here: each entry's own
/// JSON is read by JSONParser, which names the line and column of what is wrong.
struct HARStreamReader {
    /// One `log.entries` item: its JSON bytes, its place from 0 and the file's line it starts on.
    struct RawEntry {
        var bytes: [UInt8]
        var index: Int
        var line: Int
    }

    private let handle: FileHandle
    private let name: String
    private let maxEntryBytes: Int
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private(set) var line = 1
    /// `log.creator.name` and version, once the walk passed it.
    private(set) var creator = ""
    private var state = State.start
    private var nextIndex = 0

    private enum State { case start, inEntries, done }

    /// Reads 1 MiB at a time: large enough that the system call is not the cost.
    private static let chunk = 1 << 20

    init(url: URL, name: String, maxEntryBytes: Int) throws(ImportError) {
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw ImportError("\(name): cannot read (check its permissions)")
        }
        self.name = name
        self.maxEntryBytes = maxEntryBytes
    }

    /// The next entry, or nil once `log.entries` is read to its end (and the rest of the file is sound).
    mutating func next() throws(ImportError) -> RawEntry? {
        switch state {
        case .done: return nil
        case .start:
            try findEntries()
            state = .inEntries
            skipWhitespace()
            if try peek() == UInt8(ascii: "]") { position += 1; try finishDocument(); return nil }
        case .inEntries:
            skipWhitespace()
            switch try take() {
            case UInt8(ascii: ","): break
            case UInt8(ascii: "]"): try finishDocument(); return nil
            case let byte: throw unexpected(byte, "',' or ']' after /log/entries/\(nextIndex - 1)")
            }
        }
        skipWhitespace()
        let start = line
        var bytes: [UInt8] = []
        try value(keepingInto: &bytes, limit: maxEntryBytes, at: "/log/entries/\(nextIndex)")
        defer { nextIndex += 1 }
        return RawEntry(bytes: bytes, index: nextIndex, line: start)
    }

    // MARK: The structure around the entries

    /// Reads `{"log": {... "entries": [` up to the first entry, keeping `creator` on the way.
    private mutating func findEntries() throws(ImportError) {
        skipWhitespace()
        if try peek() == 0xEF { position += 3 }  // a UTF-8 byte-order mark
        skipWhitespace()
        guard try take() == UInt8(ascii: "{") else { throw notHAR() }
        var sawLog = false
        try members(of: "") { (reader: inout HARStreamReader, key: String) throws(ImportError) -> Bool? in
            guard key == "log", !sawLog else { return nil }
            sawLog = true
            reader.skipWhitespace()
            guard try reader.take() == UInt8(ascii: "{") else { throw ImportError("\(reader.name): not a HAR (no top-level \"log\" object); a HAR 1.2 file is {\"log\": {\"entries\": [...]}}") }
            var found = false
            try reader.members(of: "/log") { (inner: inout HARStreamReader, key: String) throws(ImportError) -> Bool? in
                switch key {
                case "entries":
                    inner.skipWhitespace()
                    guard try inner.take() == UInt8(ascii: "[") else { throw ImportError("\(inner.name):\(inner.line): /log/entries is not a list") }
                    found = true
                    return true  // stop: the entries are read one by one from here
                case "creator":
                    var bytes: [UInt8] = []
                    try inner.value(keepingInto: &bytes, limit: 1 << 20, at: "/log/creator")
                    if case .object(let c)? = try? JSONParser.parse(Data(bytes)), case .string(let n)? = c["name"] {
                        inner.creator = n
                        if case .string(let v)? = c["version"] { inner.creator += " " + v }
                    }
                    return false
                default:
                    return nil
                }
            } skipping: { (inner: inout HARStreamReader) throws(ImportError) in try inner.skipValue(at: "/log") }
            guard found else { throw ImportError("\(reader.name): /log/entries is missing or not a list") }
            return true
        } skipping: { (reader: inout HARStreamReader) throws(ImportError) in try reader.skipValue(at: "") }
        guard sawLog else { throw notHAR() }
    }

    /// The members of an object whose `{` was read: `visit` reads a key's value itself and returns
    /// true to stop there (the reader is left inside the object), false when it read the value whole;
    /// a key it does not want is `skip`ped. Returns at the object's `}` when nothing stopped it.
    private mutating func members(of pointer: String, _ visit: (inout HARStreamReader, String) throws(ImportError) -> Bool?,
                                  skipping skip: (inout HARStreamReader) throws(ImportError) -> Void) throws(ImportError) {
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { position += 1; return }
        while true {
            skipWhitespace()
            guard try take() == UInt8(ascii: "\"") else { throw unexpected(buffer[position - 1], "a key in \(pointer.isEmpty ? "the top object" : pointer)") }
            var keyBytes: [UInt8] = []
            try string(keepingInto: &keyBytes, limit: 4096, at: pointer)
            let key = String(decoding: keyBytes.dropLast(), as: UTF8.self)
            skipWhitespace()
            guard try take() == UInt8(ascii: ":") else { throw unexpected(buffer[position - 1], "':' after the key \"\(key.prefix(40))\"") }
            skipWhitespace()
            switch try visit(&self, key) {
            case true?: return
            case false?: break
            case nil: try skip(&self)
            }
            skipWhitespace()
            switch try take() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return
            case let byte: throw unexpected(byte, "',' or '}' in \(pointer.isEmpty ? "the top object" : pointer)")
            }
        }
    }

    /// After the entries' `]`: the rest of `log` and of the file, skipped but checked, so a file cut
    /// after its last entry is still called truncated.
    private mutating func finishDocument() throws(ImportError) {
        state = .done
        for pointer in ["/log", ""] {
            skipWhitespace()
            switch try take() {
            case UInt8(ascii: "}"): continue
            case UInt8(ascii: ","):
                try members(of: pointer) { (_: inout HARStreamReader, _: String) throws(ImportError) -> Bool? in nil }
                    skipping: { (reader: inout HARStreamReader) throws(ImportError) in try reader.skipValue(at: pointer) }
            case let byte: throw unexpected(byte, "',' or '}' after /log/entries")
            }
        }
        skipWhitespace()
        if let byte = try? peek() { throw unexpected(byte, "the end of the file after the HAR's last '}'") }
    }

    // MARK: Values

    private mutating func skipValue(at pointer: String) throws(ImportError) {
        var none: [UInt8] = []
        try value(keepingInto: &none, limit: nil, at: pointer)
    }

    /// One JSON value, copied into `out` (unless `limit` is nil: skipped). Strings are crossed with
    /// memchr, which is what keeps a body of megabytes quick; brackets are only counted, JSONParser
    /// checks the rest.
    private mutating func value(keepingInto out: inout [UInt8], limit: Int?, at pointer: String) throws(ImportError) {
        var depth = 0
        repeat {
            let byte = try take(at: pointer)
            if limit != nil { out.append(byte) }
            switch byte {
            case UInt8(ascii: "\""): try string(keepingInto: &out, limit: limit, at: pointer)
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 { throw unexpected(byte, "a value at \(pointer)") }
            case 0x0A: line += 1
            default:
                // A number, true, false or null ends at the byte after it, which belongs to the container.
                if depth == 0 {
                    while let next = try? peek(), !",}] \n\r\t".utf8.contains(next) {
                        position += 1
                        if limit != nil { out.append(next) }
                    }
                }
            }
            if let limit, out.count > limit {
                throw ImportError("\(name):\(line): \(pointer) is over the \(limit >> 20) MiB --max-size (a HAR is read one entry at a time; the cap is per entry): raise --max-size if this machine has the memory; nothing written")
            }
        } while depth > 0
    }

    /// The rest of a string whose opening quote was read, its closing quote included.
    private mutating func string(keepingInto out: inout [UInt8], limit: Int?, at pointer: String) throws(ImportError) {
        while true {
            if position == buffer.count { try refill(at: pointer) }
            let from = position
            let (end, found) = buffer.withUnsafeBufferPointer { all -> (Int, UInt8?) in
                let base = UnsafeRawPointer(all.baseAddress! + from)
                let count = all.count - from
                let quote = memchr(base, 0x22, count).map { base.distance(to: UnsafeRawPointer($0)) }
                let slash = memchr(base, 0x5C, count).map { base.distance(to: UnsafeRawPointer($0)) }
                switch (quote, slash) {
                case (nil, nil): return (all.count, nil)
                case (let q?, nil): return (from + q, 0x22)
                case (nil, let s?): return (from + s, 0x5C)
                case (let q?, let s?): return q < s ? (from + q, 0x22) : (from + s, 0x5C)
                }
            }
            let upTo = found == nil ? end : end + 1
            if limit != nil { out.append(contentsOf: buffer[position..<upTo]) }
            position = upTo
            if let limit, out.count > limit {
                throw ImportError("\(name):\(line): \(pointer) is over the \(limit >> 20) MiB --max-size (a HAR is read one entry at a time; the cap is per entry): raise --max-size if this machine has the memory; nothing written")
            }
            switch found {
            case 0x22?: return
            case 0x5C?:
                let escaped = try take(at: pointer)
                if limit != nil { out.append(escaped) }
            default: continue
            }
        }
    }

    // MARK: Bytes

    private mutating func refill(at pointer: String = "") throws(ImportError) {
        guard !atEnd else {
            throw ImportError("\(name):\(line): not JSON: the JSON ends inside \(pointer.isEmpty ? "the HAR" : pointer) (is the file truncated? export it again); nothing written")
        }
        let data: Data
        do { data = try handle.read(upToCount: HARStreamReader.chunk) ?? Data() } catch {
            throw ImportError("\(name): cannot read: \(error.localizedDescription)")
        }
        buffer = Array(data)
        position = 0
        if data.isEmpty {
            atEnd = true
            throw ImportError("\(name):\(line): not JSON: the JSON ends inside \(pointer.isEmpty ? "the HAR" : pointer) (is the file truncated? export it again); nothing written")
        }
    }

    private mutating func peek(at pointer: String = "") throws(ImportError) -> UInt8 {
        if position == buffer.count { try refill(at: pointer) }
        return buffer[position]
    }

    private mutating func take(at pointer: String = "") throws(ImportError) -> UInt8 {
        let byte = try peek(at: pointer)
        position += 1
        return byte
    }

    private mutating func skipWhitespace() {
        while let byte = try? peek() {
            switch byte {
            case 0x0A: line += 1; position += 1
            case 0x20, 0x09, 0x0D: position += 1
            default: return
            }
        }
    }

    private func unexpected(_ byte: UInt8, _ expected: String) -> ImportError {
        let shown = (0x20...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
        return ImportError("\(name):\(line): not JSON: found \(shown) where \(expected) belongs; nothing written")
    }

    private func notHAR() -> ImportError {
        ImportError("\(name): not a HAR (no top-level \"log\" object); a HAR 1.2 file is {\"log\": {\"entries\": [...]}}")
    }
}
