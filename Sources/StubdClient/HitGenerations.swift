import Foundation
import StubdProtocol

/// Generational hit analysis: run a scenario several times, `mark()` after each run, and check that
/// the representative runs (all but the first and the last) made the same calls. A client that
/// leaks a polling timer or retries more each time makes later generations grow, which is what
/// burns a real API's quota.
///
/// ```swift
/// let generations = HitGenerations(server)
/// for _ in 0..<5 { try await runScenario(); try await generations.mark() }
/// #expect(generations.isStable, "\(generations.report)")
/// ```
public final class HitGenerations: Sendable {
    private let control: any StubControl
    private let snapshots = Locked<[[String: Int]]>([])

    /// Generations of the hits on `control`: a server, or one session of it.
    public init(_ control: any StubControl) {
        self.control = control
    }

    /// Records the hits so far; the calls since the previous mark are one generation.
    public func mark() async throws {
        // Through the control itself: a client made here from the URL alone would carry only
        // STUBD_ADMIN_TOKEN from the environment, not a token the server or client was given in code.
        let hits = try await control.allHits()
        snapshots.withLock { $0.append(hits) }
    }

    /// Calls per route in each generation (the first generation counts from zero).
    public var generations: [[String: Int]] {
        let marks = snapshots.withLock { $0 }
        var previous: [String: Int] = [:]
        return marks.map { mark in
            defer { previous = mark }
            var delta: [String: Int] = [:]
            for (route, count) in mark where count - (previous[route] ?? 0) != 0 { delta[route] = count - (previous[route] ?? 0) }
            return delta
        }
    }

    /// The generations compared: all but the first (warm-up) and the last (tear-down).
    public var representative: [[String: Int]] {
        let all = generations
        return all.count >= 3 ? Array(all.dropFirst().dropLast()) : []
    }

    /// True when at least two representative generations exist and they made the same calls.
    public var isStable: Bool {
        let r = representative
        return r.count >= 2 && r.allSatisfy { $0 == r[0] }
    }

    /// Which routes changed between representative generations, e.g.
    /// `GET /api/{key}/conditions/q/CA/{city}.json: 1, 2, 3 per generation (grows)`.
    public var report: String {
        let r = representative
        guard r.count >= 2 else {
            return "need at least 4 marks (2 representative generations); have \(generations.count) generation(s)"
        }
        let routes = Set(r.flatMap(\.keys)).sorted()
        var lines: [String] = []
        for route in routes {
            let series = r.map { $0[route] ?? 0 }
            guard Set(series).count > 1 else { continue }
            let trend = zip(series, series.dropFirst()).allSatisfy { $0 <= $1 } ? "grows" : "varies"
            lines.append("\(route): \(series.map(String.init).joined(separator: ", ")) per generation (\(trend))")
        }
        return lines.isEmpty ? "stable: \(r.count) representative generations made the same calls"
            : "unstable:\n" + lines.joined(separator: "\n")
    }
}
