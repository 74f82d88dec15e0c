import Foundation
import Synchronization

/// One request as the journal remembers it.
public struct JournalEntry: Sendable {
    public let time: Date
    public let method: String
    public let path: String
    public let query: [(name: String, value: String?)]
    public let headers: [(name: String, value: String)]
    public let status: Int
    /// The route that answered, or nil.
    public let route: String?
    /// For an unmatched request: the nearest routes and why each missed.
    public let misses: [String]

    var json: JSONValue {
        var members: [String: JSONValue] = [
            "time": .string(JournalEntry.timeFormat(time)),
            "method": .string(method), "path": .string(path), "status": .number(Double(status)),
            "query": .object(Dictionary(query.map { ($0.name, JSONValue.string($0.value ?? "")) }, uniquingKeysWith: { a, _ in a })),
            "headers": .object(Dictionary(headers.map { ($0.name, JSONValue.string($0.value)) }, uniquingKeysWith: { a, b in
                if case .string(let x) = a, case .string(let y) = b { return .string(x + ", " + y) } else { return a } })),
        ]
        members["route"] = route.map { .string($0) } ?? .null
        if !misses.isEmpty { members["nearest"] = .array(misses.map { .string($0) }) }
        return .object(members)
    }

    static func timeFormat(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }
}

/// The last N requests (default 1000): a ring, so a long test run never grows it.
public final class RequestJournal: Sendable {
    private struct Ring {
        var items: [JournalEntry?]
        var next = 0
        var total = 0
    }
    private let ring: Mutex<Ring>
    public let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = Mutex(Ring(items: Array(repeating: nil, count: self.capacity)))
    }

    func append(_ entry: JournalEntry) {
        ring.withLock { r in
            r.items[r.next] = entry
            r.next = (r.next + 1) % capacity
            r.total += 1
        }
    }

    /// The newest `limit` entries, oldest first, and how many requests were ever recorded.
    public func recent(limit: Int) -> (entries: [JournalEntry], total: Int) {
        ring.withLock { r in
            let count = min(limit, min(r.total, capacity))
            var out: [JournalEntry] = []
            out.reserveCapacity(count)
            for i in 0..<count {
                let index = (r.next - count + i + capacity) % capacity
                if let e = r.items[index] { out.append(e) }
            }
            return (out, r.total)
        }
    }

    func reset() { ring.withLock { $0 = Ring(items: Array(repeating: nil, count: capacity)) } }
}
