import Foundation
import Testing
@testable import StubdCore

/// Issue 57, socket-free: what a WebSocket's peer can make stubd hold or do, bounded — the recorded
/// conversation, a fragmented text that is not UTF-8, the scripted replies waiting their turn, and
/// the sockets a reset forgets.
@Suite struct WebSocketLimitsTests {
    @Test func theTimelineGivesWhatIsDueEarliestFirstAndTiesInTheirOrder() {
        var timeline = WebSocketTimeline<String>()
        for (name, due) in [("c", 3.0), ("a1", 1.0), ("e", 5.0), ("a2", 1.0), ("b", 2.0), ("a3", 1.0), ("d", 4.0)] {
            timeline.schedule(name, due: due)
        }
        #expect(timeline.nextDue == 1.0 && timeline.count == 7)
        var taken: [String] = []
        while let next = timeline.takeDue(by: 3.5) { taken.append(next) }
        #expect(taken == ["a1", "a2", "a3", "b", "c"])
        #expect(timeline.nextDue == 4.0 && timeline.count == 2)
        var many = WebSocketTimeline<Int>()
        for n in 0..<10_000 { many.schedule(n, due: Double((n * 7919) % 10_000)) }
        var last = -1.0, count = 0
        while let n = many.takeDue(by: .infinity) {
            let due = Double((n * 7919) % 10_000)
            #expect(due >= last)
            last = due
            count += 1
        }
        #expect(count == 10_000)
    }

    /// A match whose socket never opened (its 101 never went out) is forgotten by a reset, with the
    /// pushes held for it: it held each later push for ever, reset or not.
    @Test func aResetForgetsSocketsStillConnectingAndThePushesHeldForThem() {
        let traffic = StreamTraffic(capacity: 10)
        traffic.connecting(route: "chat")
        #expect(traffic.push(.text("hi"), route: "chat") == 1, "held for the socket connecting")
        traffic.reset()
        #expect(traffic.route("chat").connecting == 0)
        #expect(traffic.push(.text("hi"), route: "chat") == 0, "no socket is open, none connecting")
    }
}
