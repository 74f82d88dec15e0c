/// What a quota said about a request, kept raw until a log line wants it.
package enum QuotaNote: Sendable, CustomStringConvertible {
    case used(Notes)
    /// `frozenClock`: the session's clock is virtual, so `Retry-After` counts down only when a test
    /// moves it; the note says so, or the same number every time looks like a bug.
    case exceeded(quota: String, retryAfter: Int, frozenClock: Bool)

    /// Kept as the quota and its standing; the strings are made only for a log line.
    package struct Item: Sendable {
        /// Kept alive by the outcome's route, like `RateLimitAdvert.quota`.
        unowned(unsafe) let quota: QuotaDefinition
        let standing: Standing
    }

    /// Usually one quota per route: the first item is kept inline, so no array is allocated for it.
    package struct Notes: Sendable {
        private var first: Item?
        /// Nil rather than empty: an outcome is copied several times, and nil needs no reference count.
        private var more: [Item]?
        init() {}
        init(_ item: Item) { first = item }
        var isEmpty: Bool { first == nil }
        /// The one item, when there is exactly one (the usual case), without building an array.
        var single: Item? { more == nil ? first : nil }
        var items: [Item] { first.map { [$0] + (more ?? []) } ?? [] }
        mutating func append(_ item: Item) {
            if first == nil { first = item } else if more == nil { more = [item] } else { more!.append(item) }
        }
    }

    /// Why a virtual clock's `Retry-After` never counts down, where the 429 shows (log, journal, dashboard).
    static let frozenClockHint = " of virtual time (the clock stands still until POST /__stubd/clock/advance or /set moves it)"

    package var description: String {
        switch self {
        case .used(let notes):
            return notes.items.map { item in
                let limit = item.quota.limits[item.standing.index]
                return "\(item.quota.name) \(limit.count - item.standing.remaining)/\(limit.count) \(limit.name)"
            }.joined(separator: ", ")
        case let .exceeded(quota, retryAfter, frozen):
            return "\(quota) exceeded, retry in \(retryAfter)s" + (frozen ? QuotaNote.frozenClockHint : "")
        }
    }

    /// What the journal keeps of it: numbers and names, formatted only when the journal is read.
    var journalForm: JournalQuotaNote {
        switch self {
        case .used(let notes):
            guard let item = notes.single else { return .text(description) }
            let limit = item.quota.limits[item.standing.index]
            return .used(quota: item.quota.name, used: limit.count - item.standing.remaining, limit: limit.count, window: limit.name)
        case let .exceeded(quota, retryAfter, frozen): return .exceeded(quota: quota, retryAfter: retryAfter, frozenClock: frozen)
        }
    }
}
