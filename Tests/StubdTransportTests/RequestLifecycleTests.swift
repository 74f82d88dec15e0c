import Foundation
@testable import Stubd
import StubdProtocol
import Synchronization
import Testing

/// A request's life on a connection, checked without a socket: for every state and every event,
/// where the request goes, what the transport is told to do and what it is handed to do it with,
/// the events libmicrohttpd or a resumer should never send included; and that of several threads
/// ending a hold, one resumes, and its work is the work finished. The work is a string here: the
/// machine is generic over it, so these tests need no responses.
@Suite struct RequestLifecycleTests {
    typealias Life = RequestLifecycle<String>
    typealias State = Life.State
    typealias Event = Life.Event
    typealias Action = Life.Action
    typealias Phase = Life.Phase

    /// Three bytes of body, valid for the whole run (an upload's bytes are libmicrohttpd's, lent for one call).
    nonisolated(unsafe) static let piece: UnsafeRawBufferPointer = {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 3, alignment: 1)
        bytes.copyBytes(from: Array("abc".utf8))
        return UnsafeRawBufferPointer(bytes)
    }()

    static func body(_ text: String) -> Data { Data(text.utf8) }

    /// Each event by a name, as the table below looks them up.
    nonisolated(unsafe) static let events: [(String, Event)] = [
        ("access call", .accessCall), ("piece of body", .upload(piece, limit: 10)), ("piece past the limit", .upload(piece, limit: 4)),
        ("declared length over the limit", .bodyOverLimit), ("hold", .hold("the hold's")), ("hold will finish", .holdWillFinish("registered")),
        ("hold over", .holdOver("the resumer's")), ("hold over, keeping", .holdOver(nil)),
        ("stream queued", .streamQueued), ("upgrade queued", .upgradeQueued), ("completed", .completed),
    ]

    /// One state of each phase, with work in it where it has room for some.
    static let states: [State] = [.readingHead, .readingBody(body("ab")), .discardingBody, .answering, .held("held"),
                                  .resumed("resumed with"), .streaming, .upgraded, .done]

    /// The legal moves from `states`; every other (state, event) pair must leave the state alone and say `illegal(event)`.
    static let legal: [Phase: [String: (Action, State)]] = [
        .readingHead: ["access call": (.readHead, .readingBody(Data()))],
        .readingBody: ["piece of body": (.keepBody, .readingBody(body("ababc"))),
                       "piece past the limit": (.discardBody, .discardingBody),
                       "access call": (.answer(body: body("ab")), .answering),
                       "declared length over the limit": (.discardBody, .discardingBody)],
        .discardingBody: ["piece of body": (.discardBody, .discardingBody),
                          "piece past the limit": (.discardBody, .discardingBody),
                          "declared length over the limit": (.discardBody, .discardingBody),
                          "access call": (.refuse(status: 413), .answering)],
        .answering: ["hold": (.suspend, .held("the hold's")), "stream queued": (.none, .streaming), "upgrade queued": (.none, .upgraded)],
        .held: ["hold will finish": (.none, .held("registered")),
                "hold over": (.resume, .resumed("the resumer's")),
                "hold over, keeping": (.resume, .resumed("held"))],
        .resumed: ["access call": (.finishPending("resumed with"), .answering)],
        .streaming: ["hold": (.suspend, .held("the hold's"))],
        .upgraded: [:],
        .done: [:],
    ]

    /// What an event that does not apply is told: an access call ends the connection (libmicrohttpd
    /// makes none of them), a hold is answered at once instead of suspending, a completion notice is
    /// always taken (a client may leave at any point), the rest change nothing.
    static func illegal(_ event: Event, in state: State) -> (Action, State) {
        switch event {
        case .accessCall, .upload: return (.close, state)
        case .hold: return (.answerNow, state)
        case .completed:
            switch state {
            case .done: return (.ignore, .done)
            case .held(let work), .resumed(let work): return (.release(unfinished: work), .done)
            default: return (.release(unfinished: nil), .done)
            }
        case .bodyOverLimit, .holdWillFinish, .holdOver, .streamQueued, .upgradeQueued: return (.ignore, state)
        }
    }

    @Test func everyStateAndEventMovesAsTheTableSays() {
        #expect(Self.states.map(\.phase) == Phase.allCases, "a phase with no state to start from")
        #expect(Set(Self.legal.keys) == Set(Phase.allCases), "a phase with no row")
        for state in Self.states {
            for (name, event) in Self.events {
                var life = Life(state)
                let (action, next) = Self.legal[state.phase]?[name] ?? Self.illegal(event, in: state)
                #expect(life.handle(event) == action, "\(name) in \(state)")
                #expect(life.state == next, "\(name) in \(state)")
            }
        }
    }

    @Test func theSharedLifecycleMovesAsTheValueDoes() {
        for state in Self.states {
            for (name, event) in Self.events {
                var life = Life(state)
                let shared = SharedLife(state)
                #expect(shared.handle(event) == life.handle(event), "\(name) in \(state)")
                #expect(shared.state == life.state, "\(name) in \(state)")
            }
        }
    }

    /// The server's own shared copy (`RequestContext`, over `PendingWork`) keeps the body behind its
    /// gate and hands it to the answer, and a hold's work to the resume.
    @Test func aContextKeepsTheBodyAndHandsOverItsWork() {
        let context = RequestContext()
        guard case .keepBody = context.handle(.upload(Self.piece, limit: 6)), case .keepBody = context.handle(.upload(Self.piece, limit: 6)),
              case .answer(let body) = context.handle(.accessCall) else { Issue.record("the body was not kept"); return }
        #expect(body == Self.body("abcabc"))
        guard case .suspend = context.handle(.hold(.response(.drop(reset: true)))), case .resume = context.handle(.holdOver(nil)),
              case .finishPending(.response(.drop(let reset))) = context.handle(.accessCall) else { Issue.record("the held work was not handed over"); return }
        #expect(reset)
    }

    @Test func aRequestWithABodyHeldThenAnswered() {
        var life = Life()
        let steps: [(Event, Action, State)] = [
            (.accessCall, .readHead, .readingBody(Data())),
            (.upload(Self.piece, limit: 6), .keepBody, .readingBody(Self.body("abc"))),
            (.upload(Self.piece, limit: 6), .keepBody, .readingBody(Self.body("abcabc"))),
            (.accessCall, .answer(body: Self.body("abcabc")), .answering),
            (.hold("delayed answer"), .suspend, .held("delayed answer")),
            (.holdOver(nil), .resume, .resumed("delayed answer")),
            (.holdOver("late"), .ignore, .resumed("delayed answer")),
            (.accessCall, .finishPending("delayed answer"), .answering),
            (.completed, .release(unfinished: nil), .done),
        ]
        for (event, action, state) in steps {
            #expect(life.handle(event) == action, "\(event)")
            #expect(life.state == state, "\(event)")
        }
    }

    @Test func aBodyPastTheLimitIsDroppedReadToTheEndThenRefused() {
        var life = Life(.readingBody(Data()))
        let steps: [(Event, Action, State)] = [
            (.upload(Self.piece, limit: 5), .keepBody, .readingBody(Self.body("abc"))),
            (.upload(Self.piece, limit: 5), .discardBody, .discardingBody),
            (.upload(Self.piece, limit: 5), .discardBody, .discardingBody),
            (.accessCall, .refuse(status: 413), .answering),
            (.hold("the refusal's"), .suspend, .held("the refusal's")),
        ]
        for (event, action, state) in steps {
            #expect(life.handle(event) == action, "\(event)")
            #expect(life.state == state, "\(event): nothing past the limit is held")
        }
    }

    @Test func aTimerAfterTheClientLeftResumesNothing() {
        var life = Life(.answering)
        #expect(life.handle(.hold("a hang's close")) == .suspend)
        #expect(life.handle(.completed) == .release(unfinished: "a hang's close"))
        #expect(life.handle(.holdOver(nil)) == .ignore, "a hang's five-minute timer after the request completed")
        #expect(life.state == .done)
    }

    /// libmicrohttpd resumes a request whose client left during its hold, sees the socket gone and
    /// completes it without calling the handler: the completion hands back the work never finished
    /// (a delayed WebSocket answer's "connecting" mark is taken back from it).
    @Test func aRequestEndedOnItsResumeHandsBackTheWorkItNeverFinished() {
        var life = Life(.answering)
        #expect(life.handle(.hold("a delayed 101")) == .suspend)
        #expect(life.handle(.holdOver(nil)) == .resume)
        #expect(life.handle(.completed) == .release(unfinished: "a delayed 101"))
        #expect(life.handle(.completed) == .ignore)
    }

    @Test func manyThreadsEndingAHoldResumeItOnceAndItsWorkIsTheOneFinished() {
        for _ in 0..<200 {
            let shared = SharedLife(.answering)
            #expect(shared.handle(.hold("held")) == .suspend)
            let winners = Locked<[String?]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                // Half hand in an answer (a forward, a waiter with one), half end the hold as it is
                // (a timer, `stop()`, the departed-client sweep).
                let work: String? = thread.isMultiple(of: 2) ? "thread \(thread)" : nil
                if shared.handle(.holdOver(work)) == .resume { winners.withLock { $0.append(work) } }
            }
            let won = winners.withLock { $0 }
            #expect(won.count == 1)
            #expect(shared.handle(.accessCall) == .finishPending((won.first ?? nil) ?? "held"))
        }
    }

    /// An admin long-poll registers its waiter after the hold starts and then says what the hold
    /// finishes (its registration); the waiter may have resumed it already, on another thread.
    @Test func workSetDuringAHoldRacesItsEndAndOneWins() {
        for _ in 0..<500 {
            let shared = SharedLife(.answering)
            #expect(shared.handle(.hold("registering")) == .suspend)
            let setter = Locked<Action?>(nil)
            let resumer = Locked<Action?>(nil)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    let action = shared.handle(.holdWillFinish("registered"))
                    setter.withLock { $0 = action }
                } else {
                    let action = shared.handle(.holdOver(nil))
                    resumer.withLock { $0 = action }
                }
            }
            let set = setter.withLock { $0 }
            #expect(resumer.withLock { $0 } == .resume)
            #expect(set == Action.none || set == Action.ignore)
            #expect(shared.handle(.accessCall) == .finishPending(set == Action.none ? "registered" : "registering"),
                    "the work set before the resume is finished, and none set after it")
        }
    }
}

/// A `RequestLifecycle<String>` behind the server's gate (`SharedRequestLifecycle.withGate`), as
/// `RequestContext` keeps its `RequestLifecycle<PendingWork>`, so the races run on strings.
private final class SharedLife: @unchecked Sendable {
    private let gate = Atomic<UInt8>(SharedRequestLifecycle.open)
    private var life: RequestLifecycle<String>

    init(_ state: RequestLifecycle<String>.State) { life = RequestLifecycle(state) }

    var state: RequestLifecycle<String>.State { SharedRequestLifecycle.withGate(gate) { life.state } }

    @discardableResult
    func handle(_ event: RequestLifecycle<String>.Event) -> RequestLifecycle<String>.Action {
        SharedRequestLifecycle.withGate(gate) { life.handle(event) }
    }
}
