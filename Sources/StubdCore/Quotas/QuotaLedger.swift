import Foundation
import StubdProtocol
import Synchronization

/// Counts requests per quota and key, exactly under any concurrency: each key's cell has one lock
/// held for a check-and-consume across all its limits, so `500/day` lets exactly 500 through.
package final class QuotaLedger: Sendable {
    package let quota: QuotaDefinition
    private let cells = Locked<CellTable>(CellTable())
    private let isUTC: Bool
    /// The zone's offset for the hour last asked about, packed as `hour << 32 | offset + 2^31`:
    /// asking the zone database is slow, and offsets only change on hour boundaries.
    private let zoneOffset = Atomic<Int>(Int.min)

    /// Every key's cell. Cells are never removed (a reset empties them in place), so a route may
    /// keep one. Requests mostly repeat the key before them, so the last one skips the hash lookup.
    private struct CellTable {
        var byKey: [String: KeyCell] = [:]
        var lastKey: String?
        var last: KeyCell?
    }

    /// The cell of `key`, created empty if need be.
    func cell(for key: String) -> KeyCell {
        cells.withLock { table in
            if let last = table.last, table.lastKey == key { return last }
            let cell = table.byKey[key] ?? KeyCell(limitCount: quota.limits.count)
            table.byKey[key] = cell
            (table.lastKey, table.last) = (key, cell)
            return cell
        }
    }

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
    /// The whole verdict, every limit's standing included: for the admin API and tests.
    func consume(key: String, at date: Date) -> QuotaVerdict {
        settle(cell(for: key), key: key, at: date, wholeVerdict: true).verdict!
    }

    /// `consume` for the request path: an accepted request learns only the limit nearest to
    /// running out (what the headers show), so nothing is allocated for the others.
    func charge(key: String, at date: Date) -> QuotaCharge {
        settle(cell(for: key), key: key, at: date, wholeVerdict: false)
    }

    /// `charge` on a cell the caller kept (see `KeyCell`).
    func charge(_ cell: KeyCell, key: String, at date: Date) -> QuotaCharge {
        settle(cell, key: key, at: date, wholeVerdict: false)
    }

    private func settle(_ cell: KeyCell, key: String, at date: Date, wholeVerdict: Bool) -> QuotaCharge {
        let t = date.timeIntervalSince1970
        return cell.state.withLock { state in
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

    /// The current standing of every key, for the admin API.
    func snapshot(at date: Date) -> [(key: String, statuses: [LimitStatus])] {
        let t = date.timeIntervalSince1970
        let all = cells.withLock { $0.byKey.sorted { $0.key < $1.key } }
        return all.compactMap { key, cell in
            cell.state.withLock { state in
                guard state.touched else { return nil }
                for i in quota.limits.indices { refresh(&state.limits[i], quota.limits[i], t) }
                return (key, quota.limits.indices.map { status(state.limits[$0], quota.limits[$0], t) })
            }
        }
    }

    /// How every limit stands for `key` now, without counting anything: a key never seen has
    /// every limit untouched.
    func statuses(of key: String, at date: Date) -> [LimitStatus] {
        let t = date.timeIntervalSince1970
        let existing = cells.withLock { $0.byKey[key] }
        var limits = existing?.state.withLock { $0.limits } ?? Array(repeating: LimitState(), count: quota.limits.count)
        for i in quota.limits.indices { refresh(&limits[i], quota.limits[i], t) }
        return quota.limits.indices.map { status(limits[$0], quota.limits[$0], t) }
    }

    /// Pre-fills usage (`{"day": 500}`) so a test reaches the failure path without 500 calls.
    /// Returns the policy names that do not exist.
    func setUsed(key: String, used: [String: Int], at date: Date) -> [String] {
        let t = date.timeIntervalSince1970
        let unknown = used.keys.filter { name in !quota.limits.contains { $0.name == name } }
        guard unknown.isEmpty else { return unknown.sorted() }
        cell(for: key).state.withLock { state in
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
        }
        return []
    }

    /// Every key back to empty, in place: routes keep their cells.
    func reset() {
        let all = cells.withLock { Array($0.byKey.values) }
        for cell in all { cell.state.withLock { $0 = KeyCell.State(limits: Array(repeating: LimitState(), count: quota.limits.count)) } }
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
