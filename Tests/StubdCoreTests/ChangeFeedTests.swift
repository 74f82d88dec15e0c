import Foundation
import StubdProtocol
@testable import StubdCore
@testable import StubdEngine
import Testing

/// The dashboard's change notes, without a socket: gathered, filtered by session, bounded.
@Suite struct ChangeFeedTests {
    @Test func aBurstOfNotesIsOneEventNamingEachSessionOnce() async throws {
        let feed = ChangeFeed(interval: .milliseconds(50))
        let got = Locked<[ChangeFeed.Event]>([])
        let id = try #require(feed.subscribe(session: nil) { event in got.withLock { $0.append(event) }; return true })
        for _ in 0..<1000 { feed.note("t1"); feed.note("") }
        for _ in 0..<200 where got.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(got.withLock { $0 } == [.changed(["", "t1"])])
        feed.unsubscribe(id)
        #expect(feed.count == 0)
    }

    @Test func aSessionsStreamHearsOnlyItselfAndEverySession() async throws {
        let feed = ChangeFeed(interval: .milliseconds(10))
        let got = Locked<[ChangeFeed.Event]>([])
        _ = try #require(feed.subscribe(session: "t1") { event in got.withLock { $0.append(event) }; return true })
        feed.note("t2")
        feed.note("")
        try await Task.sleep(for: .milliseconds(200))
        #expect(got.withLock { $0 }.isEmpty)
        feed.note("*")
        for _ in 0..<200 where got.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(got.withLock { $0 } == [.changed(["*"])])
    }

    @Test func subscriptionsAreCappedAndAStreamThatCannotTakeMoreIsDropped() async throws {
        let feed = ChangeFeed(maxSubscribers: 2, interval: .milliseconds(10))
        #expect(feed.subscribe(session: nil) { _ in true } != nil)
        #expect(feed.subscribe(session: nil) { _ in false } != nil)
        #expect(feed.subscribe(session: nil) { _ in true } == nil, "a third past the cap of 2")
        feed.note("x")
        for _ in 0..<200 where feed.count == 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(feed.count == 1, "the stream that refused was dropped")
        #expect(feed.subscribe(session: nil) { _ in true } != nil, "its place is free again")
        feed.unsubscribeAll()
        #expect(feed.count == 0)
    }
}
