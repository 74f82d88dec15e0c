public import HTTPTypes

/// A route as a test names it in a hit count or a wait: a route's name (`city-not-found`), a
/// concrete path (`GET /api/KEY/x.json`, or `/x` for any method) or a pattern (`GET /api/{key}/**`).
/// Read once, where it enters (the client's call, the admin API's `?route=`), and carried typed
/// from there; a string literal reads as one, so `server.hits("GET /x")` stays short.
///
/// The method is upper-cased; `ANY` means any method. Words are separated by spaces or tabs.
/// A known method followed by something that is not a path is a mistake, not a name
/// (`GET a/b` is refused with "write GET /a/b").
public struct RouteReference: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// What the reference names.
    public enum Target: Sendable, Hashable {
        /// A route's name (or anything that reads as neither a method nor a path).
        case name(String)
        /// A path or a path pattern, as written; `method` nil means any method.
        case path(method: HTTPRequest.Method?, path: String)
    }

    /// The methods a reference may name, besides `ANY`.
    public static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]

    /// As written.
    public let text: String
    private let parsed: Result<Target, RouteReferenceError>

    /// Reads `text`; throws when it reads as a method and a path but is neither.
    public init(parsing text: String) throws(RouteReferenceError) {
        self.text = text
        parsed = Self.parse(text)
        _ = try parsed.get()
    }

    /// A literal in a test. One that cannot be read throws where it is used (`hits`, `waitForHits`),
    /// with the same message `init(parsing:)` gives.
    public init(stringLiteral value: String) {
        text = value
        parsed = Self.parse(value)
    }

    /// What the reference names; throws when its text could not be read.
    public var target: Target {
        get throws(RouteReferenceError) { try parsed.get() }
    }

    /// The reference as written.
    public var description: String { text }

    /// Two references are the same when written the same (the server counts by the text).
    public static func == (a: RouteReference, b: RouteReference) -> Bool { a.text == b.text }
    /// Hashes the text, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    private static func parse(_ text: String) -> Result<Target, RouteReferenceError> {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        var trimmed = Substring(text).drop(while: blank)
        while let last = trimmed.last, blank(last) { trimmed = trimmed.dropLast() }
        let word: String
        let path: Substring
        if trimmed.first == "/" {
            return .success(.path(method: nil, path: String(trimmed)))
        } else if let gap = trimmed.firstIndex(where: blank) {
            word = trimmed[..<gap].uppercased()
            path = Substring(trimmed[gap...].drop(while: blank))
            guard path.first == "/" || word == "ANY" || methods.contains(word) else { return .success(.name(text)) }
        } else {
            return .success(.name(text))
        }
        guard path.first == "/" else {
            return .failure(RouteReferenceError(text: text, problem: .pathWithoutSlash(method: word, path: String(path))))
        }
        if word == "ANY" { return .success(.path(method: nil, path: String(path))) }
        guard methods.contains(word), let method = HTTPRequest.Method(word) else {
            return .failure(RouteReferenceError(text: text, problem: .unknownMethod(word)))
        }
        return .success(.path(method: method, path: String(path)))
    }
}
