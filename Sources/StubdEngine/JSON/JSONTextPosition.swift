package import Foundation

/// Where a JSON pointer's value starts in a JSON text, as 1-based line and column, so a contract
/// violation in a stub file is reported where an editor shows it. Used only on the error path, so it
/// re-scans the text rather than keeping positions for every value at load.
package enum JSONTextPosition {
    /// Nil when the text does not hold the pointer (it should: the pointer came from parsing it).
    package static func of(_ pointer: String, in data: Data) -> (line: Int, column: Int)? {
        let tokens = pointer.isEmpty ? [] : pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        let bytes = [UInt8](data)
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        for token in tokens {
            guard scanner.descend(into: token) else { return nil }
        }
        return position(of: scanner.index, in: bytes)
    }

    private static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        // Columns count characters, not bytes: `"é": 1` puts the 1 at column 7.
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return (line, column)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// Moves to the start of the member `token` of the object, or item `token` of the array, at `index`.
        mutating func descend(into token: String) -> Bool {
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: "{") {
                index += 1
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
                    let keyStart = index
                    skipValue()
                    let key = (try? JSONParser.parse(Data(bytes[keyStart..<index]))).flatMap { if case .string(let s) = $0 { s } else { nil } }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
                    index += 1
                    skipSpace()
                    if key == token { return true }
                    skipValue()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
                    index += 1
                }
            }
            if bytes[index] == UInt8(ascii: "["), let wanted = Int(token) {
                index += 1
                for _ in 0..<wanted {
                    skipSpace()
                    skipValue()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
                    index += 1
                }
                skipSpace()
                return index < bytes.count && bytes[index] != UInt8(ascii: "]")
            }
            return false
        }

        /// Past one value: a string, a nested object or array, or a literal.
        mutating func skipValue() {
            guard index < bytes.count else { return }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        skipValue()
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { index += 1; return }
                    default: break
                    }
                    index += 1
                }
            default:
                while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                    index += 1
                }
            }
        }
    }
}
