/// `PUT /__stubd/quotas/{name}`: pre-fills what a key has used, so a test reaches the failure
/// path without making 500 calls. `used` counts are whole numbers; the server checks them.
public struct QuotaFill: Sendable, Equatable, Codable {
    /// The key whose use is set, as the quota's `key:` reads it (a path segment, a query or header value, an
    /// address); nil means `""`, the one key of a `global` quota.
    public let key: String?
    /// Policy name → requests used (`["day": 500]`), as sent.
    public let used: [String: Count]

    /// A fill of `used` requests per policy name for `key`.
    public init(key: String?, used: [String: Int]) {
        self.key = key
        self.used = used.mapValues(Count.whole)
    }

    /// A count as the JSON wrote it: read as an integer where one holds it, so `9007199254740993`
    /// is that number (a Double would hold …992), and a message can echo what was sent.
    public enum Count: Sendable, Equatable, Codable {
        /// A whole number that fits in an `Int`.
        case whole(Int)
        /// A fraction, or a number no Int holds (`2.5`, `1e19`).
        case number(Double)

        /// Reads an integer where one holds the number, a `Double` otherwise.
        public init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let whole = try? value.decode(Int.self) { self = .whole(whole) } else { self = .number(try value.decode(Double.self)) }
        }

        /// Writes the number as it was read.
        public func encode(to encoder: any Encoder) throws {
            var value = encoder.singleValueContainer()
            switch self {
            case .whole(let n): try value.encode(n)
            case .number(let n): try value.encode(n)
            }
        }
    }
}
