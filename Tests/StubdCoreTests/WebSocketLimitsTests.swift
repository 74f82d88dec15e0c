import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine

/// Issue 57, socket-free: what a WebSocket's peer can make stubd hold or do, bounded — the recorded
/// conversation, a fragmented text that is not UTF-8, the scripted replies waiting their turn, and
/// the sockets a reset forgets.
@Suite struct WebSocketLimitsTests {
    @Test func aRecordedConversationKeepsItsFirstMessagesUpToTheCapAndCountsTheRest() throws {
        var transcript = WebSocketTranscript(maxBytes: 10 * (218 + WebSocketTranscript.messageOverheadBytes))
        let flood = String(repeating: "x", count: 218)
        for n in 0..<1000 { transcript.append(.init(at: .milliseconds(n), fromClient: n == 0, payload: .text(flood))) }
        #expect(transcript.messages.count == 10)
        #expect(transcript.unrecorded == 990)
        #expect(transcript.relayedMessages == 1000)
        // Empty messages cost their overhead: a flood of them is bounded too.
        var empties = WebSocketTranscript(maxBytes: 640)
        for _ in 0..<100_000 { empties.append(.init(at: .zero, fromClient: false, payload: .binary([]))) }
        #expect(empties.messages.count == 10 && empties.unrecorded == 99_990)
        // A message that fits after one that did not is not kept either: no hole in the middle.
        var gap = WebSocketTranscript(maxBytes: 200)
        gap.append(.init(at: .zero, fromClient: false, payload: .text(flood)))
        gap.append(.init(at: .zero, fromClient: false, payload: .text("a")))
        #expect(gap.messages.isEmpty && gap.unrecorded == 2)

        let file = String(decoding: RecordedWebSocket.wsFile(transcript, masker: SecretMasker()), as: UTF8.self)
        #expect(file.contains("# recording stopped after 10 message(s) at --max-body (2820 bytes"), "\(file)")
        #expect(file.contains("990 later message(s) were relayed, not recorded"), "\(file)")
        #expect(file.count < 10 * 300, "the file holds only what was kept: \(file.count) characters")
    }

    @Test func aFragmentedTextThatIsNotUTF8IsRefusedAtTheFragmentThatBreaksIt() throws {
        var assembler = WebSocketMessageAssembler(maxMessageBytes: 1024)
        #expect(throws: WebSocketProtocolError.invalidData("a text message that is not UTF-8")) {
            try assembler.add(WebSocketFrame(fin: false, opcode: .text, payload: [0x61, 0xC3, 0x28]))
        }
        // A character cut between fragments waits for its end, and is good.
        var split = WebSocketMessageAssembler(maxMessageBytes: 1024)
        #expect(try split.add(WebSocketFrame(fin: false, opcode: .text, payload: [0x61, 0xE2, 0x82])) == nil)
        #expect(try split.add(WebSocketFrame(fin: false, opcode: .continuation, payload: [0xAC])) == nil)
        #expect(try split.add(WebSocketFrame(fin: true, opcode: .continuation, payload: [0x62])) == .text("a€b"))
        var broken = WebSocketMessageAssembler(maxMessageBytes: 1024)
        #expect(try broken.add(WebSocketFrame(fin: false, opcode: .text, payload: [0x61])) == nil)
        #expect(throws: WebSocketProtocolError.invalidData("a text message that is not UTF-8")) {
            try broken.add(WebSocketFrame(fin: false, opcode: .continuation, payload: [0xFF, 0x61]))
        }
    }

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
