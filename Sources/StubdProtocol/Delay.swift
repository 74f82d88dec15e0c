/// A delay before an answer is sent: a response's or route's `delay:` in the manifest, a runtime
/// stub's, and `StubRoute.Response.delayed(_:)`'s.
///
/// On the wire it has the manifest's spellings: a fixed delay is its duration (`"200ms"`), the
/// others a one-key object (`{"uniform": ["50ms", "300ms"]}`, `{"lognormal": {"median": "80ms", "sigma": 0.4}}`).
public enum Delay: Sendable, Hashable, CustomStringConvertible {
    /// Always this long (`"200ms"` on the wire).
    case fixed(Duration)
    /// Any delay from the first to the second, each as likely.
    case uniform(Duration, Duration)
    /// Mostly near `median`, with a long tail; `sigma` (0 to 10) says how long.
    case lognormal(median: Duration, sigma: Double)

    /// `200ms`, `uniform 50ms–300ms`, `lognormal median 80ms sigma 0.4`: as logs and reports show it.
    public var description: String {
        switch self {
        case .fixed(let d): return d.shortDescription
        case .uniform(let a, let b): return "uniform \(a.shortDescription)–\(b.shortDescription)"
        case .lognormal(let m, let s): return "lognormal median \(m.shortDescription) sigma \(s)"
        }
    }
}

extension Delay: Codable {
    private enum Keys: String, CodingKey { case uniform, lognormal, median, sigma }

    /// Writes the manifest's spelling: a fixed delay as its duration, the others as a one-key object.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .fixed(let d):
            var c = encoder.singleValueContainer()
            try c.encode(d.shortDescription)
        case .uniform(let low, let high):
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode([low.shortDescription, high.shortDescription], forKey: .uniform)
        case .lognormal(let median, let sigma):
            var c = encoder.container(keyedBy: Keys.self)
            var inner = c.nestedContainer(keyedBy: Keys.self, forKey: .lognormal)
            try inner.encode(median.shortDescription, forKey: .median)
            try inner.encode(sigma, forKey: .sigma)
        }
    }

    /// Reads the manifest's spellings; text that is not a duration (`"fast"`) is a `DecodingError` naming it.
    public init(from decoder: any Decoder) throws {
        if let c = try? decoder.singleValueContainer(), let text = try? c.decode(String.self) {
            self = .fixed(try Self.duration(text, decoder.codingPath))
            return
        }
        let c = try decoder.container(keyedBy: Keys.self)
        if let pair = try c.decodeIfPresent([String].self, forKey: .uniform) {
            guard pair.count == 2 else {
                throw DecodingError.dataCorruptedError(forKey: .uniform, in: c, debugDescription: "uniform needs two durations")
            }
            self = .uniform(try Self.duration(pair[0], c.codingPath), try Self.duration(pair[1], c.codingPath))
            return
        }
        let inner = try c.nestedContainer(keyedBy: Keys.self, forKey: .lognormal)
        self = .lognormal(median: try Self.duration(try inner.decode(String.self, forKey: .median), inner.codingPath),
                          sigma: try inner.decode(Double.self, forKey: .sigma))
    }

    private static func duration(_ text: String, _ path: [any CodingKey]) throws -> Duration {
        guard let d = Duration(manifestText: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "'\(text)' is not a duration"))
        }
        return d
    }
}
