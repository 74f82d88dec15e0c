import Foundation
import HTTPTypes
import StubdProtocol
import Synchronization
import StubdEngine

/// `GET /__stubd/quotas` and `PUT /__stubd/quotas/{name}`: the session's quota keys, a page at a
/// time, and a key's counts set by a test.
extension AdminEndpoints {
    /// One page of the session's quotas: every quota, with up to `limit` keys over all of them,
    /// from the key after `cursor` on, in catalog order, then key order.
    func quotasReport(_ session: SessionState, limit: Int = QuotasReport.defaultPageSize,
                              after cursor: QuotaPageCursor? = nil) -> QuotasReport {
        let now = session.clock.now()
        let ledgers = session.existingLedgers()
        let quotas = catalog.quotas
        let first = cursor.flatMap { c in quotas.firstIndex { $0.name == c.quota } } ?? 0
        var room = limit
        var next: QuotaPageCursor?
        let report = quotas.indices.map { i -> QuotasReport.Quota in
            let quota = quotas[i]
            let ledger = ledgers[quota.name]
            var keys: [(key: String, statuses: [LimitStatus])] = []
            if i >= first, next == nil, let ledger {
                if room > 0 {
                    let page = ledger.snapshot(at: now, after: i == first ? cursor?.after : nil, limit: room)
                    keys = page.keys
                    room -= keys.count
                    if page.more, let last = keys.last { next = QuotaPageCursor(quota: quota.name, after: last.key) }
                } else if ledger.keyCount > 0 {
                    // The page filled up on the quotas before: the next one starts with this quota.
                    next = QuotaPageCursor(quota: quota.name, after: nil)
                }
            }
            return QuotasReport.Quota(
                name: quota.name, algorithm: quota.algorithm.rawValue, key: quota.key.description,
                limits: quota.limits.map(\.description), routes: quota.selectors.map(\.text),
                keys: keys.map { entry in QuotasReport.KeyStanding(key: entry.key, limits: entry.statuses.map { s in
                    QuotasReport.LimitStanding(policy: s.limit.name, limit: s.limit.count, used: s.used,
                                               remaining: s.remaining, resetsIn: s.resetsIn) }) },
                keyCount: ledger?.keyCount ?? 0, maxKeys: ledger?.maxKeys.load(ordering: .relaxed) ?? quota.maxKeys)
        }
        return QuotasReport(session: session.id, now: JournalEntry.timeFormat(now), quotas: report, next: next?.text)
    }

    func prefill(_ session: SessionState, quota name: String, body: Data) -> GeneratedResponse {
        guard let quota = catalog.quotas.first(where: { $0.name == name }) else {
            let names = catalog.quotas.map(\.name)
            return .problem(404, title: "No such quota", detail: "no quota named '\(name)'; quotas: " + (names.isEmpty ? "none" : names.joined(separator: ", ")))
        }
        guard let fill = try? adminRequest(QuotaFill.self, body) else {
            return .problem(400, title: "Bad quota fill", detail: #"send {"key": "abc", "used": {"day": 500}} (whole numbers); policies of this quota: "# + quota.limits.map(\.name).joined(separator: ", "))
        }
        var counts: [String: Int] = [:]
        for (policy, count) in fill.used {
            guard case .whole(let n) = count, n >= 0, n <= Int(QuotaLimit.maxCount) else {
                let sent: String
                switch count {
                case .whole(let n): sent = String(n)
                case .number(let n): sent = n.rounded() == n && abs(n) < 1e16 ? String(Int64(n)) : String(n)
                }
                return .problem(400, title: "Bad quota fill",
                                detail: "used.\(policy) must be a whole number from 0 to \(Int(QuotaLimit.maxCount)), got \(sent)")
            }
            counts[policy] = n
        }
        let key = fill.key ?? ""
        let unknown: [String]
        do { unknown = try session.ledger(for: quota).setUsed(key: key, used: counts, at: session.clock.now()) } catch {
            return .problem(409, title: "Too many quota keys", detail: error.description)
        }
        guard unknown.isEmpty else {
            return .problem(400, title: "Unknown policy", detail: "quota '\(name)' has no policy \(unknown.joined(separator: ", ")); its policies: " + quota.limits.map(\.name).joined(separator: ", "))
        }
        return .document(200, quotasReport(session))
    }
}
