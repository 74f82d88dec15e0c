import Foundation
import StubdProtocol

/// When this process first served each content (by entity tag): a canned answer's `Last-Modified`.
/// The same content keeps its date across reloads, and an edited stub gets the time of the reload
/// that brought it, so `If-Modified-Since` behaves as against a real server whose files change.
/// A restart starts afresh: a client's date from an earlier run is older, and gets the full answer.
package enum ContentDates {
    private static let seen = Locked([String: Int]())
    /// Distinct contents remembered; past it the table starts over (the contents then date from
    /// now, which only ever sends a full answer where a 304 could have gone).
    static let capacity = 100_000

    /// Seconds since 1970, whole, of the first time `tag` was asked for.
    static func firstSeen(_ tag: String) -> Int {
        let now = Int(Date().timeIntervalSince1970)
        return seen.withLock { table in
            if let date = table[tag] { return date }
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[tag] = now
            return now
        }
    }
}
