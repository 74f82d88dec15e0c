import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 38, item 8: every key a client invents held memory for as long as the server ran. A key
/// whose windows have all passed is now forgotten (its next request finds it empty, as a new key's
/// is), and a quota counts at most `maxKeys` keys at once.
@Suite struct QuotaKeyExpiryTests {
    func quota(_ limits: [String], algorithm: QuotaAlgorithm = .fixed, maxKeys: Int = QuotaDefinition.defaultMaxKeys) -> QuotaDefinition {
        QuotaDefinition(name: "keyed", selectors: [], key: .query("k", ignoringCase: false), limits: limits.compactMap(QuotaLimit.init),
                        algorithm: algorithm, exceeded: .profile(.ietf), advertise: .ietf,
                        timeZone: TimeZone(identifier: "UTC")!, maxKeys: maxKeys, source: "stubd.yml:3")
    }

    /// 2016-08-30T00:00:20Z: 20 s into a minute.
    let start = Date(timeIntervalSince1970: 1_472_515_220)

    @Test(arguments: QuotaAlgorithm.allCases)
    func keysAreDroppedOnceEveryWindowHasPassed(algorithm: QuotaAlgorithm) throws {
        let ledger = QuotaLedger(quota: quota(["10/minute", "1/hour"], algorithm: algorithm))
        for i in 0..<3000 { #expect(try ledger.charge(key: "k\(i)", at: start).accepted) }
        #expect(ledger.keyCount == 3000)
        // The minute passed, not the hour: every key still has a request counted.
        ledger.sweep(at: start.addingTimeInterval(61))
        #expect(ledger.keyCount == 3000)
        #expect(ledger.snapshot(at: start.addingTimeInterval(61)).keys.count == 3000)
        ledger.sweep(at: start.addingTimeInterval(3601))
        #expect(ledger.keyCount == 0)
        // A forgotten key starts afresh, as it would have anyway.
        let again = ledger.consume(key: "k7", at: start.addingTimeInterval(3602))
        #expect(again.accepted && again.statuses.map(\.used) == [1, 1])
    }

    /// On the wall clock nobody moves: adding keys sweeps now and then, so keys that expired go
    /// even when the admin API is never asked.
    @Test func addingKeysAfterTheWindowsPassedDropsTheExpiredOnes() throws {
        let ledger = QuotaLedger(quota: quota(["10/minute"]))
        for i in 0..<2000 { _ = try ledger.charge(key: "old\(i)", at: start) }
        #expect(ledger.keyCount == 2000)
        _ = try ledger.charge(key: "new", at: start.addingTimeInterval(61))
        #expect(ledger.keyCount == 1)
    }

    /// A refused key is kept past its windows, so its next accepted request counts as a recovery
    /// (coverage's `reset-by-clock`); at the cap it goes too.
    @Test func anExhaustedKeyIsKeptForItsRecoveryUnlessTheCapNeedsRoom() throws {
        let ledger = QuotaLedger(quota: quota(["1/minute"], maxKeys: 2))
        _ = try ledger.charge(key: "a", at: start)
        #expect(try !ledger.charge(key: "a", at: start).accepted)
        ledger.sweep(at: start.addingTimeInterval(61))
        #expect(ledger.keyCount == 1)
        #expect(try ledger.charge(key: "a", at: start.addingTimeInterval(61)).recovered)

        #expect(try !ledger.charge(key: "a", at: start.addingTimeInterval(62)).accepted)
        _ = try ledger.charge(key: "b", at: start.addingTimeInterval(62))
        // Both windows passed: "c" takes the room of a key whose windows passed, exhausted or not.
        #expect(try ledger.charge(key: "c", at: start.addingTimeInterval(130)).accepted)
        #expect(ledger.keyCount == 1)
    }

    @Test func aNewKeyPastTheCapIsRefusedNamingTheCapAndWhereToRaiseIt() throws {
        let ledger = QuotaLedger(quota: quota(["10/minute"], maxKeys: 3))
        for key in ["a", "b", "c"] { #expect(try ledger.charge(key: key, at: start).accepted) }
        let refusal = #expect(throws: QuotaKeyCapReached.self) { try ledger.charge(key: "d", at: start) }
        #expect(refusal?.description.contains("counts 3 keys at once, its cap (maxKeys)") == true, "\(refusal.map { "\($0)" } ?? "")")
        #expect(refusal?.description.contains("stubd.yml:3") == true)
        #expect(throws: QuotaKeyCapReached.self) { try ledger.setUsed(key: "d", used: ["minute": 1], at: start) }
        // Known keys go on counting; the cap tells once until there is room again.
        #expect(try ledger.charge(key: "a", at: start).accepted)
        #expect(ledger.shouldNoticeCap() && !ledger.shouldNoticeCap())
        // Once the minute passed, the old keys make room.
        #expect(try ledger.charge(key: "d", at: start.addingTimeInterval(61)).accepted)
        #expect(ledger.shouldNoticeCap())
    }

    /// A route's own cell (a fixed key) is charged without the table: it must never be dropped,
    /// or the route would count where nobody looks.
    @Test func aRoutesPinnedCellIsNeverDropped() throws {
        let ledger = QuotaLedger(quota: quota(["1/minute"]))
        let cell = ledger.pinnedCell(for: "")
        #expect(ledger.charge(cell, key: "", at: start).accepted)
        ledger.sweep(at: start.addingTimeInterval(3600))
        ledger.reset()
        #expect(ledger.charge(cell, key: "", at: start.addingTimeInterval(3600)).accepted)
        #expect(try !ledger.charge(key: "", at: start.addingTimeInterval(3600)).accepted, "the table and the route share the cell")
    }

    /// A sweep may retire a key's cell between a request's lookup and its charge; the request must
    /// then count in the key's new cell, not in the dropped one: each key's one request a day is
    /// let through exactly once whatever the interleaving.
    @Test func sweepsRacingWithChargesLoseNoCount() async {
        let ledger = QuotaLedger(quota: quota(["1/day"]))
        let keys = (0..<2000).map { "k\($0)" }
        let accepted = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for _ in 0..<200 { ledger.sweep(at: start) }
                return 0
            }
            for task in 0..<8 {
                group.addTask {
                    let order = task % 2 == 0 ? keys : keys.reversed()
                    return order.reduce(0) { n, key in n + ((try? ledger.charge(key: key, at: start).accepted) == true ? 1 : 0) }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(accepted == keys.count)
    }

    @Test func theReportComesInKeyOrderAPageAtATime() throws {
        let ledger = QuotaLedger(quota: quota(["10/minute"]))
        for i in (0..<25).reversed() { _ = try ledger.charge(key: String(format: "k%02d", i), at: start) }
        let first = ledger.snapshot(at: start, limit: 10)
        #expect(first.keys.map(\.key) == (0..<10).map { String(format: "k%02d", $0) } && first.more)
        let last = ledger.snapshot(at: start, after: "k19", limit: 10)
        #expect(last.keys.map(\.key) == (20..<25).map { String(format: "k%02d", $0) } && !last.more)
    }

    @Test(arguments: ["0", "10000001", "lots"])
    func maxKeysMustBeAReasonableWholeNumber(value: String) throws {
        let problems = try TempStubs(["a.json": "{}", "stubd.yml": """
            quotas:
              - { name: keyed, routes: ["GET /a"], key: { query: k }, limits: ["1/minute"], maxKeys: \(value) }
            """]).problems()
        #expect(problems.count == 1 && problems[0].message.contains("maxKeys") && problems[0].line == 2, "\(problems)")
    }
}
