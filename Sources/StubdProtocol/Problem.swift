import Foundation

/// An error answer (RFC 9457 `application/problem+json`), as the admin API sends it: what went
/// wrong and what to do, and for an unknown route name the nearest names.
public struct Problem: Sendable, Equatable, Codable {
    /// A URI naming the kind of problem; `about:blank` when the title says it all.
    public var type: String
    /// A short summary, the same for every problem of its kind: `No such route`, `Bad count`.
    public var title: String
    /// The HTTP status of the answer.
    public var status: Int
    /// What went wrong this time, and what to send instead.
    public var detail: String
    /// For "No such route": the nearest route names or signatures, best first.
    public var nearest: [String]?

    /// A problem as given.
    public init(type: String = "about:blank", title: String, status: Int, detail: String, nearest: [String]? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.nearest = nearest
    }

    /// The title a hit count's 404 carries when the name is wrong (not the count).
    public static let noSuchRoute = "No such route"

    private enum CodingKeys: String, CodingKey { case type, title, status, detail, nearest }

    /// Reads any problem document: a missing field gets a default, and a stub miss's `nearest` (objects) is dropped.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
        title = try c.decodeIfPresent(String.self, forKey: .title) ?? ""
        status = try c.decodeIfPresent(Int.self, forKey: .status) ?? 0
        detail = try c.decodeIfPresent(String.self, forKey: .detail) ?? ""
        // A stub miss lists its nearest routes as objects; only the admin API's names are kept.
        nearest = try? c.decodeIfPresent([String].self, forKey: .nearest)
    }
}
