import Foundation
@testable import Stubd
import StubdProtocol
import Testing

/// A request's life on a connection, checked without a socket: for every state and every event,
/// where the request goes and what the transport is told to do, the events libmicrohttpd or a
/// resumer should never send included; and that of several threads ending a hold, one resumes.
@Suite struct RequestLifecycleTests {
    typealias State = RequestLifecycle.State
    typealias Event = RequestLifecycle.Event
    typealias Action = RequestLifecycle.Action

    static let events: [Event] = [.accessCall(upload: false), .accessCall(upload: true), .bodyOverLimit, .hold, .holdOver,
                                  .streamQueued, .upgradeQueued, .completed]

    /// The legal moves; every other (state, event) pair must leave the state alone and say `illegal(event)`.
    static let legal: [State: [Event: (Action, State)]] = [
        .readingHead: [.accessCall(upload: false): (.readHead, .readingBody)],
        .readingBody: [.accessCall(upload: true): (.keepBody, .readingBody),
                       .accessCall(upload: false): (.answer, .answering),
                       .bodyOverLimit: (.discardBody, .discardingBody)],
        .discardingBody: [.accessCall(upload: true): (.discardBody, .discardingBody),
                          .bodyOverLimit: (.discardBody, .discardingBody),
                          .accessCall(upload: false): (.refuse(status: 413), .answering)],
        .answering: [.hold: (.suspend, .held), .streamQueued: (.none, .streaming), .upgradeQueued: (.none, .upgraded)],
        .held: [.holdOver: (.resume, .resumed)],
        .resumed: [.accessCall(upload: false): (.finishPending, .answering)],
        .streaming: [.hold: (.suspend, .held)],
        .upgraded: [:],
        .done: [:],
    ]

    /// What an event that does not apply is told: an access call ends the connection (libmicrohttpd
    /// makes none of them), a hold is answered at once instead of suspending, a completion notice is
    /// always taken (a client may leave at any point), the rest change nothing.
    static func illegal(_ event: Event, in state: State) -> (Action, State) {
        switch event {
        case .accessCall: return (.close, state)
        case .hold: return (.answerNow, state)
        case .completed: return state == .done ? (.ignore, .done) : (.release, .done)
        case .bodyOverLimit, .holdOver, .streamQueued, .upgradeQueued: return (.ignore, state)
        }
    }

    @Test func everyStateAndEventMovesAsTheTableSays() {
        #expect(Set(Self.legal.keys) == Set(State.allCases), "a state with no row")
        for state in State.allCases {
            for event in Self.events {
                var life = RequestLifecycle(state)
                let (action, next) = Self.legal[state]?[event] ?? Self.illegal(event, in: state)
                #expect(life.handle(event) == action, "\(event) in \(state)")
                #expect(life.state == next, "\(event) in \(state)")
            }
        }
    }

    @Test func theSharedLifecycleMovesAsTheValueDoes() {
        for state in State.allCases {
            for event in Self.events {
                var life = RequestLifecycle(state)
                let shared = SharedRequestLifecycle(state)
                #expect(shared.handle(event) == life.handle(event), "\(event) in \(state)")
                #expect(shared.state == life.state, "\(event) in \(state)")
            }
        }
    }

    @Test func aRequestWithABodyHeldThenAnswered() {
        var life = RequestLifecycle()
        let steps: [(Event, Action, State)] = [
            (.accessCall(upload: false), .readHead, .readingBody),
            (.accessCall(upload: true), .keepBody, .readingBody),
            (.accessCall(upload: true), .keepBody, .readingBody),
            (.accessCall(upload: false), .answer, .answering),
            (.hold, .suspend, .held),
            (.holdOver, .resume, .resumed),
            (.holdOver, .ignore, .resumed),
            (.accessCall(upload: false), .finishPending, .answering),
            (.completed, .release, .done),
        ]
        for (event, action, state) in steps {
            #expect(life.handle(event) == action, "\(event)")
            #expect(life.state == state, "\(event)")
        }
    }

    @Test func aBodyPastTheLimitIsReadAndDroppedThenRefused() {
        var life = RequestLifecycle(.readingBody)
        let steps: [(Event, Action)] = [(.accessCall(upload: true), .keepBody), (.bodyOverLimit, .discardBody),
                                        (.accessCall(upload: true), .discardBody), (.accessCall(upload: false), .refuse(status: 413)),
                                        (.hold, .suspend)]
        for (event, action) in steps { #expect(life.handle(event) == action, "\(event)") }
    }

    @Test func aTimerAfterTheClientLeftResumesNothing() {
        var life = RequestLifecycle(.answering)
        #expect(life.handle(.hold) == .suspend)
        #expect(life.handle(.completed) == .release)
        #expect(life.handle(.holdOver) == .ignore, "a hang's five-minute timer after the request completed")
        #expect(life.state == .done)
    }

    @Test func manyThreadsEndingAHoldResumeItOnce() {
        for _ in 0..<200 {
            let context = RequestContext(.answering)
            #expect(context.lifecycle.handle(.hold) == .suspend)
            let wins = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                if context.lifecycle.handle(.holdOver) == .resume { wins.withLock { $0 += 1 } }
            }
            #expect(wins.withLock { $0 } == 1)
        }
    }
}
