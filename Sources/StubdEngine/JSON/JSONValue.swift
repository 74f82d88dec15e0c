import Foundation

/// A parsed JSON document: used to validate `.json` stubs and to match request bodies.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Compact serialization with sorted keys, so equal values serialize equally.
    package var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// A container being written: what is left of it. The writer keeps these on a stack of its own,
    /// not the thread's, so no depth of value can overflow the stack (a JSON Patch once built an item
    /// 58,500 levels deep, and writing it crashed the server).
    private enum OpenContainer {
        case array([JSONValue], next: Int)
        case object([String: JSONValue], keys: [String], next: Int)
    }

    private func write(to out: inout String) {
        var open: [OpenContainer] = []
        var value: JSONValue? = self
        while true {
            if let current = value {
                value = nil
                switch current {
                case .null: out += "null"
                case .bool(let b): out += b ? "true" : "false"
                case .number(let n):
                    // Whole numbers as integers up to 2^63 (`1234567890123456`, an ID, not `1.234567890123456e+15`);
                    // exact up to 2^53, where a Double stops holding every integer.
                    // Past 2^63 too, up to 10^21 as JavaScript writes them: DigitalOcean's `9223372036854776000`
                    // (an integer schema's example) was written `9.223372036854776e+18`, which is no integer's
                    // spelling. The digits are the Double's (2^63 is 9223372036854775808).
                    if n.rounded() == n, abs(n) < 9.2e18 { out += String(Int64(n)) }
                    else if n.rounded() == n, abs(n) < 1e21 { out += String(format: "%.0f", n) }
                    else { out += String(n) }
                case .string(let s): JSONValue.writeString(s, to: &out)
                case .array(let items):
                    out += "["
                    open.append(.array(items, next: 0))
                case .object(let members):
                    out += "{"
                    open.append(.object(members, keys: members.keys.sorted(), next: 0))
                }
            }
            guard let container = open.popLast() else { return }
            switch container {
            case .array(let items, let next):
                guard next < items.count else { out += "]"; continue }
                if next > 0 { out += "," }
                open.append(.array(items, next: next + 1))
                value = items[next]
            case .object(let members, let keys, let next):
                guard next < keys.count else { out += "}"; continue }
                if next > 0 { out += "," }
                JSONValue.writeString(keys[next], to: &out)
                out += ":"
                open.append(.object(members, keys: keys, next: next + 1))
                value = members[keys[next]]!
            }
        }
    }

    package static func writeString(_ s: String, to out: inout String) {
        out += "\""
        writeEscaped(s, to: &out)
        out += "\""
    }

    /// A string's content as it stands between a JSON string's quotes.
    static func writeEscaped(_ s: String, to out: inout String) {
        // Most values (ids, dates, names) need nothing: appended whole.
        if !s.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) { out += s; return }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
    }

    /// True when every member of `pattern` is present here with an equal value
    /// (objects compared recursively; arrays and scalars must be equal).
    package func contains(_ pattern: JSONValue) -> Bool {
        switch (self, pattern) {
        case (.object(let mine), .object(let wanted)):
            return wanted.allSatisfy { key, value in mine[key].map { $0.contains(value) } ?? false }
        default:
            return self == pattern
        }
    }
}
