import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine

/// The journal keeps bodies for `stubd export har` within a budget a session: past it, the oldest
/// entries' bodies go first (their sizes stay), and a body over 64 KiB is cut.
@Suite struct JournalBodyBudgetTests {
    static func entry(_ n: Int, bodyBytes: Int) -> JournalEntry {
        let request = RequestHead(method: .get, path: "/\(n)")
        let answer = Outcome.Answer.generated(GeneratedResponse(status: .ok, body: Data(repeating: 0x61, count: bodyBytes)))
        return JournalEntry(time: Date(), method: .get, path: "/\(n)", query: [], headers: [:], status: .ok, route: nil, misses: [],
                            bodies: JournalBodies(request: request, answer: answer))
    }

    @Test func theOldestBodiesGoFirstWhenTheBudgetRunsOut() {
        let journal = RequestJournal(capacity: 10, bodyBudget: 100)
        for n in 1...5 { journal.append(Self.entry(n, bodyBytes: 40)) }
        let kept = journal.recent(limit: 10).entries
        #expect(kept.map { $0.bodies?.dropped } == [true, true, true, false, false])
        #expect(kept.map { $0.bodies?.shown(for: $0, masking: JournalMasking()).responseBody.count } == [0, 0, 0, 40, 40])
        #expect(kept.map { $0.bodies?.shown(for: $0, masking: JournalMasking()).responseSize } == [40, 40, 40, 40, 40])
    }

    @Test func aRingThatWrapsGivesBackWhatItsOverwrittenEntriesHeld() {
        // 3 entries of 40 fit 120; each one overwritten frees its 40, so none is ever dropped.
        let journal = RequestJournal(capacity: 3, bodyBudget: 120)
        for n in 1...20 { journal.append(Self.entry(n, bodyBytes: 40)) }
        #expect(journal.recent(limit: 3).entries.map { $0.bodies?.dropped } == [false, false, false])
    }

    @Test func aBodyOver64KiBIsCutAndSaysSo() {
        let entry = Self.entry(1, bodyBytes: 100_000)
        let bodies = entry.bodies!.shown(for: entry, masking: JournalMasking())
        #expect(bodies.responseBody.count == 65_536)
        #expect(bodies.responseTruncated && bodies.responseSize == 100_000)
    }

    /// A large canned body is not held whole (a reloaded catalog's would outlive it, while the budget
    /// counted 64 KiB of it), and a dropped entry holds no body at all: what the journal keeps is what
    /// its budget counts. The catalog's answer must be freed once nothing but the journal saw it.
    @Test func aLargeCannedBodyIsNotHeldWholeAndADroppedOneIsLetGo() {
        final class Weak: @unchecked Sendable { weak var value: CannedResponse? }
        let journal = RequestJournal(capacity: 4, bodyBudget: 100_000)
        let held = Weak()
        do {
            let canned = CannedResponse(status: .ok, headers: [.contentType: "text/plain"], body: Data(repeating: 0x62, count: 1 << 20))
            held.value = canned
            for _ in 1...2 {
                let answer = Outcome.Answer.canned(canned, extraHeaders: ExtraHeaders([:]))
                journal.append(JournalEntry(time: Date(), method: .get, path: "/big", query: [], headers: [:], status: .ok, route: nil,
                                            misses: [], bodies: JournalBodies(request: RequestHead(method: .get, path: "/big"), answer: answer)))
            }
        }
        #expect(held.value == nil, "the journal still holds the whole 1 MiB canned answer")
        let entries = journal.recent(limit: 4).entries
        let shown = entries.map { $0.bodies!.shown(for: $0, masking: JournalMasking()) }
        #expect(shown.map(\.dropped) == [true, false])
        #expect(shown.map(\.responseBody.count) == [0, 65_536])
        #expect(shown.map(\.responseSize) == [1 << 20, 1 << 20])
        #expect(shown.map { $0.responseHeaders[.contentType] } == ["text/plain", "text/plain"])
    }
}
