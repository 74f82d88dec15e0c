package import Foundation
import StubdProtocol
package import Synchronization

/// Counts requests per quota and key, exactly under any concurrency: each key's cell has one lock
/// held for a check-and-consume across all its limits, so `500/day` lets exactly 500 through.
package final class QuotaLedger: Sendable {
    package let quota: QuotaDefinition
    private let cells = Locked<CellTable>(CellTable())
    private let isUTC: Bool
    /// The zone's offset for the hour last asked about, packed as `hour << 32 | offset + 2^31`:
    /// asking the zone database is slow, and offsets only change on hour boundaries.
    private let zoneOffset = Atomic<Int>(Int.min)

    /// Every key's cell. A cell whose windows have all passed is dropped (`sweep`), so keys a client
    /// invents do not pile up; routes keep theirs (`pinnedCell`). Requests mostly repeat the key
    /// before them, so the last one skips the hash lookup.
    private struct CellTable {
        var byKey: [String: KeyCell] = [:]
        var lastKey: String?
        var last: KeyCell?
        /// Adding a key at this size sweeps first: twice what the last sweep left, so sweeping
        /// costs a constant per key added.
        var sweepAtCount = QuotaLedger.sweepFloor
        /// Adding a key at or after this time sweeps first too: keys expire though few new ones come.
        var sweepAfter = -Double.infinity
    }

    /// Below this many keys a table is not swept when a key is added: small, and sweeping would
    /// cost more than it frees.
    static let sweepFloor = 1024

    /// The quota's `maxKeys`, from the catalog in force: a reload that keeps the counts may change it.
    package let maxKeys: Atomic<Int>
    /// Whether the cap has been told of since the table was last below it: one log line, not one
    /// per refused request.
    private let capNoticed = Atomic<Bool>(false)

    /// The cell of `key`, created empty if need be. Throws when the key is new and the quota counts
    /// `maxKeys` keys even after dropping those whose windows have passed.
    private func cell(for key: String, at t: Double) throws(QuotaKeyCapReached) -> KeyCell {
        let cap = maxKeys.load(ordering: .relaxed)
        let found: KeyCell? = cells.withLock { table in
            if let last = table.last, table.lastKey == key { return last }
            if let known = table.byKey[key] {
                (table.lastKey, table.last) = (key, known)
                return known
            }
            let count = table.byKey.count
            if count >= cap || (count >= QuotaLedger.sweepFloor && (count >= table.sweepAtCount || t >= table.sweepAfter)) {
                sweep(&table, at: t, evenExhausted: count >= cap)
            }
            guard table.byKey.count < cap else { return nil }
            let cell = KeyCell(limitCount: quota.limits.count)
            table.byKey[key] = cell
            (table.lastKey, table.last) = (key, cell)
            return cell
        }
        guard let found else { throw QuotaKeyCapReached(quota: quota.name, cap: cap, source: quota.source) }
        return found
    }

    /// The cell of `key` for a route to keep (a key the same on every request of the route): never
    /// dropped, and never refused for the cap, as there are only as many as routes.
    func pinnedCell(for key: String) -> KeyCell {
        cells.withLock { table in
            let cell = table.byKey[key] ?? KeyCell(limitCount: quota.limits.count)
            table.byKey[key] = cell
            cell.state.withLock { $0.pinned = true }
            return cell
        }
    }

    /// True the first time the cap refuses a key since the table was last below it: the caller logs it.
    func shouldNoticeCap() -> Bool {
        !capNoticed.exchange(true, ordering: .relaxed)
    }

    /// Drops every key whose windows have all passed at `t`: its next request would find it empty,
    /// as a new key's is. A key whose last request was refused is kept (its next accepted request is
    /// a recovery, which coverage counts) unless `evenExhausted`: at the cap, memory comes first.
    private func sweep(_ table: inout CellTable, at t: Double, evenExhausted: Bool) {
        table.byKey = table.byKey.filter { _, cell in
            cell.state.withLock { state in
                guard !state.pinned, evenExhausted || !state.exhausted else { return true }
                for i in quota.limits.indices {
                    refresh(&state.limits[i], quota.limits[i], t)
                    if state.limits[i].used > 0 { return true }
                }
                state.retired = true
                return false
            }
        }
        if let last = table.last, table.lastKey.map({ table.byKey[$0] === last }) != true { (table.lastKey, table.last) = (nil, nil) }
        table.sweepAtCount = max(QuotaLedger.sweepFloor, 2 * table.byKey.count)
        // The shortest window: no key can expire sooner than that after it was last seen.
        table.sweepAfter = t + Double(quota.limits.map(\.windowSeconds).min() ?? 1)
        if table.byKey.count < maxKeys.load(ordering: .relaxed) { capNoticed.store(false, ordering: .relaxed) }
    }

    /// `sweep` for the admin API and the clock: after a move of the session's clock, and before a report.
    func sweep(at date: Date) {
        cells.withLock { sweep(&$0, at: date.timeIntervalSince1970, evenExhausted: false) }
    }

    /// How many keys the quota counts now (pinned ones included).
    package var keyCount: Int { cells.withLock { $0.byKey.count } }

    /// For a `fixed` quota without a month limit: each limit's count and window as plain numbers, so an
    /// accepted request is settled without copying `QuotaLimit`s (their names are strings) or going
    /// through every algorithm's code; that was most of what a quota cost per request. Empty otherwise.
    private let fixedWindows: [FixedWindow]
    private struct FixedWindow {
        let count: Double
        let seconds: Double
    }

    init(quota: QuotaDefinition) {
        self.quota = quota
        maxKeys = Atomic(quota.maxKeys)
        fixedWindows = quota.algorithm == .fixed && !quota.limits.contains { $0.unit == .month }
            ? quota.limits.map { FixedWindow(count: Double($0.count), seconds: Double($0.windowSeconds)) }
            : []
        // Foundation on Linux names UTC "GMT".
        isUTC = quota.timeZone.secondsFromGMT() == 0 && ["UTC", "GMT", "Etc/UTC", "Etc/GMT"].contains(quota.timeZone.identifier)
    }

    private func offset(at t: Double) -> Double {
        if isUTC { return 0 }
        let hour = Int((t / 3600).rounded(.down))
        let cached = zoneOffset.load(ordering: .relaxed)
        if cached != Int.min, cached >> 32 == hour { return Double((cached & 0xFFFF_FFFF) - (1 << 31)) }
        let seconds = quota.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: t))
        zoneOffset.store(hour << 32 | (seconds + (1 << 31)), ordering: .relaxed)
        return Double(seconds)
    }

    /// Checks every limit and, only if all pass, consumes one from each (rejected calls are free).
    /// The whole verdict, every limit's standing included: for tests, below the key cap.
    func consume(key: String, at date: Date) -> QuotaVerdict {
        try! charge(key: key, at: date, wholeVerdict: true).verdict!
    }

    /// `consume` for the request path: an accepted request learns only the limit nearest to
    /// running out (what the headers show), so nothing is allocated for the others.
    func charge(key: String, at date: Date) throws(QuotaKeyCapReached) -> QuotaCharge {
        try charge(key: key, at: date, wholeVerdict: false)
    }

    private func charge(key: String, at date: Date, wholeVerdict: Bool) throws(QuotaKeyCapReached) -> QuotaCharge {
        let t = date.timeIntervalSince1970
        // Again when a sweep retired the cell between the lookup and the charge.
        while true {
            if let charge = settle(try cell(for: key, at: t), key: key, at: date, wholeVerdict: wholeVerdict) { return charge }
        }
    }

    /// `charge` on a cell the caller kept (see `KeyCell`): a pinned one, never retired.
    func charge(_ cell: KeyCell, key: String, at date: Date) -> QuotaCharge {
        settle(cell, key: key, at: date, wholeVerdict: false)!
    }

    /// Nil, with nothing counted, when the cell was retired meanwhile.
    private func settle(_ cell: KeyCell, key: String, at date: Date, wholeVerdict: Bool) -> QuotaCharge? {
        let t = date.timeIntervalSince1970
        return cell.state.withLock { state in
            if state.retired { return nil }
            state.touched = true
            // An exhausted key takes the general path, which notes its recovery.
            if !wholeVerdict, !fixedWindows.isEmpty, !state.exhausted, let tightest = chargeFixed(&state.limits, t) {
                return QuotaCharge(accepted: true, tightest: tightest, verdict: nil)
            }
            // Mutated in place: a copy out and back in would allocate per request.
            var charge = settle(&state.limits, t, date, key, wholeVerdict)
            if !charge.accepted {
                state.exhausted = true
            } else if state.exhausted {
                state.exhausted = false
                charge.recovered = true
            }
            return charge
        }
    }

    /// `charge` for the request path's shortcut (`SoleQuota`): consumes one request when the quota has
    /// calendar-aligned windows and room in each, and returns the limit nearest to running out. Nil,
    /// with nothing consumed, otherwise: then `charge` decides, and builds the rejection.
    func chargeIfRoom(_ cell: KeyCell, at date: Date) -> Standing? {
        guard !fixedWindows.isEmpty else { return nil }
        let t = date.timeIntervalSince1970
        return cell.state.withLock { state in
            state.touched = true
            // An exhausted key goes to `charge`, which notes its recovery.
            return state.exhausted ? nil : chargeFixed(&state.limits, t)
        }
    }

    /// `settle` for a request under calendar-aligned windows that has room in every limit: the same
    /// windows and standing as `refresh` and `standing` compute, on plain numbers. Nil, and nothing
    /// consumed, when a limit is full: the general path then builds the rejection.
    private func chargeFixed(_ limits: inout [LimitState], _ t: Double) -> Standing? {
        let offset = self.offset(at: t)
        return fixedWindows.withUnsafeBufferPointer { windows in
            limits.withUnsafeMutableBufferPointer { states in
                for i in windows.indices {
                    let seconds = windows[i].seconds
                    let start = ((t + offset) / seconds).rounded(.down) * seconds - offset
                    if start != states[i].since { states[i].since = start; states[i].used = 0 }
                    if windows[i].count - states[i].used < 1 { return nil }
                }
                var tightest: Standing?
                for i in windows.indices {
                    states[i].used += 1
                    let remaining = max(0, Int((windows[i].count - states[i].used).rounded(.down)))
                    let resetsIn = max(0, Int((states[i].since + windows[i].seconds - t).rounded(.up)))
                    if let best = tightest, (best.remaining, best.resetsIn) <= (remaining, resetsIn) { continue }
                    tightest = Standing(index: i, remaining: remaining, resetsIn: resetsIn, used: Int(states[i].used.rounded(.up)))
                }
                return tightest
            }
        }
    }

    private func settle(_ limits: inout [LimitState], _ t: Double, _ date: Date, _ key: String, _ wholeVerdict: Bool) -> QuotaCharge {
        let accepted = quota.limits.withUnsafeBufferPointer { definitions in
            var accepted = true
            for i in definitions.indices {
                refresh(&limits[i], definitions[i], t)
                if Double(definitions[i].count) - limits[i].used < 1 { accepted = false }
            }
            return accepted
        }
        if accepted, !wholeVerdict {
            // Borrowed, not copied per limit: a QuotaLimit copy showed in profiles of this loop.
            return quota.limits.withUnsafeBufferPointer { definitions in
                var tightest: Standing?
                for i in definitions.indices {
                    limits[i].used += 1
                    if quota.algorithm == .sliding { limits[i].times.append(t) }
                    let s = standing(limits[i], definitions[i], index: i, t)
                    if let best = tightest, (best.remaining, best.resetsIn) <= (s.remaining, s.resetsIn) { continue }
                    tightest = s
                }
                return QuotaCharge(accepted: true, tightest: tightest, verdict: nil)
            }
        }
        let violated = accepted ? [] : quota.limits.indices.compactMap { i -> LimitStatus? in
            Double(quota.limits[i].count) - limits[i].used < 1 ? status(limits[i], quota.limits[i], t) : nil
        }
        if accepted {
            for i in quota.limits.indices {
                limits[i].used += 1
                if quota.algorithm == .sliding { limits[i].times.append(t) }
            }
        }
        let statuses = quota.limits.indices.map { status(limits[$0], quota.limits[$0], t) }
        let verdict = QuotaVerdict(quota: quota, key: key, accepted: accepted, statuses: statuses, violated: violated,
                                   retryAfter: max(1, violated.map(\.resetsIn).max() ?? 1), now: date)
        return QuotaCharge(accepted: accepted, tightest: nil, verdict: verdict)
    }

    /// The standing of keys after `cursor` (all when nil) in key order, at most `limit` of them, for the
    /// admin API; keys whose windows have all passed are dropped first. `more`: whether keys follow.
    package func snapshot(at date: Date, after cursor: String? = nil, limit: Int = .max) -> (keys: [(key: String, statuses: [LimitStatus])], more: Bool) {
        let t = date.timeIntervalSince1970
        let candidates = cells.withLock { table in
            sweep(&table, at: t, evenExhausted: false)
            return cursor.map { after in table.byKey.filter { $0.key > after } } ?? table.byKey
        }
        var page: [(key: String, statuses: [LimitStatus])] = []
        var more = false
        for (key, cell) in candidates.sorted(by: { $0.key < $1.key }) {
            let statuses = cell.state.withLock { state -> [LimitStatus]? in
                guard state.touched, !state.retired else { return nil }
                for i in quota.limits.indices { refresh(&state.limits[i], quota.limits[i], t) }
                return quota.limits.indices.map { status(state.limits[$0], quota.limits[$0], t) }
            }
            guard let statuses else { continue }
            if page.count == limit { more = true; break }
            page.append((key, statuses))
        }
        return (page, more)
    }

    /// How every limit stands for `key` now, without counting anything: a key never seen has
    /// every limit untouched.
    func statuses(of key: String, at date: Date) -> [LimitStatus] {
        let t = date.timeIntervalSince1970
        let existing = cells.withLock { $0.byKey[key] }
        var limits = existing?.state.withLock { $0.retired ? nil : $0.limits } ?? Array(repeating: LimitState(), count: quota.limits.count)
        for i in quota.limits.indices { refresh(&limits[i], quota.limits[i], t) }
        return quota.limits.indices.map { status(limits[$0], quota.limits[$0], t) }
    }

    /// Pre-fills usage (`{"day": 500}`) so a test reaches the failure path without 500 calls.
    /// Returns the policy names that do not exist; throws, filling nothing, when the key is new and
    /// the quota is at its key cap.
    package func setUsed(key: String, used: [String: Int], at date: Date) throws(QuotaKeyCapReached) -> [String] {
        let t = date.timeIntervalSince1970
        let unknown = used.keys.filter { name in !quota.limits.contains { $0.name == name } }
        guard unknown.isEmpty else { return unknown.sorted() }
        while true {
            let filled = try cell(for: key, at: t).state.withLock { state -> Bool in
                if state.retired { return false }
                state.touched = true
                state.exhausted = false
                for i in quota.limits.indices {
                    refresh(&state.limits[i], quota.limits[i], t)
                    guard let n = used[quota.limits[i].name] else { continue }
                    state.limits[i].used = Double(max(0, n))
                    if quota.algorithm == .sliding {
                        state.limits[i].times = Array(repeating: t, count: max(0, n))
                        state.limits[i].head = 0
                    }
                }
                return true
            }
            if filled { return [] }
        }
    }

    /// Every key back to empty: routes' cells in place (they keep them), the others dropped.
    func reset() {
        cells.withLock { table in
            table.byKey = table.byKey.filter { _, cell in
                cell.state.withLock { state in
                    guard state.pinned else { state.retired = true; return false }
                    state = KeyCell.State(limits: Array(repeating: LimitState(), count: quota.limits.count), pinned: true)
                    return true
                }
            }
            (table.lastKey, table.last) = (nil, nil)
            table.sweepAtCount = QuotaLedger.sweepFloor
        }
        capNoticed.store(false, ordering: .relaxed)
    }

    // MARK: Windows

    private func refresh(_ s: inout LimitState, _ limit: QuotaLimit, _ t: Double) {
        switch quota.algorithm {
        case .fixed:
            let start = windowStart(limit, t)
            if start != s.since { s.since = start; s.used = 0 }
        case .sliding:
            let horizon = t - Double(limit.windowSeconds)
            while s.head < s.times.count, s.times[s.head] <= horizon { s.head += 1 }
            if s.head > 64, s.head * 2 > s.times.count { s.times.removeFirst(s.head); s.head = 0 }
            s.used = Double(s.times.count - s.head)
        case .tokenBucket:
            let rate = Double(limit.count) / Double(limit.windowSeconds)
            if s.since == 0 { s.since = t }
            s.used = max(0, s.used - (t - s.since) * rate)
            s.since = t
        }
    }

    private func status(_ s: LimitState, _ limit: QuotaLimit, _ t: Double) -> LimitStatus {
        let standing = standing(s, limit, index: 0, t)
        return LimitStatus(limit: limit, remaining: standing.remaining, resetsIn: standing.resetsIn, used: standing.used)
    }

    private func standing(_ s: LimitState, _ limit: QuotaLimit, index: Int, _ t: Double) -> Standing {
        let remaining = max(0, Int((Double(limit.count) - s.used).rounded(.down)))
        let resetsIn: Double
        switch quota.algorithm {
        case .fixed:
            // `refresh` has just set `since` to the window's start; months differ in length.
            resetsIn = (limit.unit == .month ? nextWindowStart(limit, t) : s.since + Double(limit.windowSeconds)) - t
        case .sliding:
            // Room comes back when the oldest request inside the window leaves it.
            let oldest = s.head < s.times.count ? s.times[s.head] : t
            resetsIn = remaining > 0 ? Double(limit.windowSeconds) - (t - oldest) : oldest + Double(limit.windowSeconds) - t
        case .tokenBucket:
            let rate = Double(limit.count) / Double(limit.windowSeconds)
            resetsIn = remaining > 0 ? s.used / rate : (1 - (Double(limit.count) - s.used)) / rate
        }
        return Standing(index: index, remaining: remaining, resetsIn: max(0, Int(resetsIn.rounded(.up))), used: Int(s.used.rounded(.up)))
    }

    /// Calendar-aligned window starts in the quota's time zone: :00 of the minute, midnight, the 1st.
    private func windowStart(_ limit: QuotaLimit, _ t: Double) -> Double {
        let offset = self.offset(at: t)
        let local = t + offset
        switch limit.unit {
        case .month:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = quota.timeZone
            let date = Date(timeIntervalSince1970: t)
            let start = calendar.date(from: calendar.dateComponents([.year, .month], from: date)) ?? date
            return start.timeIntervalSince1970
        default:
            let w = Double(limit.windowSeconds)
            return (local / w).rounded(.down) * w - offset
        }
    }

    private func nextWindowStart(_ limit: QuotaLimit, _ t: Double) -> Double {
        switch limit.unit {
        case .month:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = quota.timeZone
            let start = Date(timeIntervalSince1970: windowStart(limit, t))
            return (calendar.date(byAdding: .month, value: 1, to: start) ?? start).timeIntervalSince1970
        default:
            return windowStart(limit, t) + Double(limit.windowSeconds)
        }
    }
}
