import Foundation

/// A user's own JSON inside an admin document (a runtime stub's `json:` body), carried as a value
/// so the document stays one Codable type. Integers stay integers: `7` is not sent as `7.0`.
public enum EmbeddedJSON: Codable, Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number that fits in 64 bits, kept exact.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([EmbeddedJSON])
    /// An object; `AdminCoding` writes its keys sorted.
    case object([String: EmbeddedJSON])

    /// Parses JSON text (any value, not only objects and arrays).
    /// Throws `EmbeddedJSON.Invalid` saying why, so a typo in a test's JSON is reported where it is made.
    public init(parsing text: String) throws(Invalid) {
        do {
            self = try JSONDecoder().decode(EmbeddedJSON.self, from: Data(text.utf8))
        } catch {
            throw Invalid(text: text, reason: Self.reason(error))
        }
    }

    /// Why the text given to `init(parsing:)` is not JSON.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// The text as given.
        public let text: String
        /// What the JSON parser found wrong, in its words.
        public let reason: String
        /// `not valid JSON (REASON): TEXT`, the text cut to 60 characters.
        public var description: String {
            let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
            return "not valid JSON (\(reason)): \(shown)"
        }
    }

    private static func reason(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        }
        return "\(error)"
    }

    /// Reads any JSON value, as an integer where one holds the number.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .integer(i) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([EmbeddedJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: EmbeddedJSON].self)) }
    }

    /// Writes the value back as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .integer(let i): try c.encode(i)
        case .number(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}
