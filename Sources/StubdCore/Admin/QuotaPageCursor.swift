import Foundation
import StubdEngine

/// Where the next page of `GET /__stubd/quotas` starts: after a key of a quota, or at a quota's
/// first key. Sent as opaque base64url, since keys are whatever a client sent (slashes, spaces…).
struct QuotaPageCursor: Equatable {
    let quota: String
    /// Nil: the quota's first key (a key may be "", so "" cannot mean that).
    let after: String?

    init(quota: String, after: String?) {
        self.quota = quota
        self.after = after
    }

    /// Nil when `text` is not a cursor this server wrote.
    init?(text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let parts = String(data: data, encoding: .utf8)?
            .split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false), parts.count == 2 else { return nil }
        quota = String(parts[0])
        switch parts[1].first {
        case nil: after = nil
        case "k": after = String(parts[1].dropFirst())
        default: return nil
        }
    }

    var text: String {
        Data((quota + "\u{0}" + (after.map { "k" + $0 } ?? "")).utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
