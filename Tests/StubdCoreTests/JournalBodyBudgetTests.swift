import Foundation
import HTTPTypes
import Testing
@testable import StubdCore

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
}
