import Foundation

/// Where one request is in its life on a connection, and the work it holds: each event (a call of
/// libmicrohttpd's, a hold starting or ending, the completion notice) moves it and says what the
/// transport must do, handing over what to do it with, as Hummingbird's
/// `HTTPConnectionStateHandler.StateMachine` does for its channel.
///
/// libmicrohttpd calls the access handler several times per request (the head, each piece of body,
/// the end of the body, and once more after each resume), and timers, waiters, a forward and
/// `stop()` may end a hold from other threads, each at most once. Which event may do what is
/// decided here, with no socket in sight, so every transition, the illegal ones too, is tested on
/// its own (`RequestLifecycleTests`); the C callbacks feed events and carry out the actions.
/// The work lives in the states (the body read so far, what a hold will finish) rather than beside
/// them, so whoever wins the move to a state owns its work: of several threads ending a hold, the
/// one that resumes is the one whose answer is finished, and nothing else writes it.
/// Generic over that work (`PendingWork` in the server) so the tests need no responses. A plain
/// request makes its lifecycle on the stack (`RequestSlot` keeps no object for one), a tracked one
/// keeps it in its context (`SharedRequestLifecycle`).
struct RequestLifecycle<Work> {
    /// The states without their work: what the tests' table and a glance at a request need.
    enum Phase: UInt8, Hashable, Sendable, CaseIterable {
        case readingHead, readingBody, discardingBody, answering, held, resumed, streaming, upgraded, done
    }

    enum State {
        /// Nothing read yet: the next access call is the head's.
        case readingHead
        /// The head is read: pieces of body, or the end of the request, come next. Holds the body so far.
        case readingBody(Data)
        /// The body passed the limit: the rest is read and dropped, and the request refused at its end.
        case discardingBody
        /// The whole request is in: an answer is being decided or queued.
        case answering
        /// The answer is held with the connection suspended (a delay, a hang, a long-poll, a forward,
        /// a render off the worker, a stream's pause). Holds what to finish when the hold is over.
        case held(Work)
        /// The hold is over and the connection resumed: libmicrohttpd calls the handler again, which
        /// finishes the work this holds (the one that ended the hold handed it in, or the hold's own).
        case resumed(Work)
        /// The answer's head is queued and its body is read as the socket takes it.
        case streaming
        /// A 101 is queued: the socket is handed over once it is sent.
        case upgraded
        /// libmicrohttpd's completion notice: nothing more happens to this request.
        case done

        var phase: Phase {
            switch self {
            case .readingHead: .readingHead
            case .readingBody: .readingBody
            case .discardingBody: .discardingBody
            case .answering: .answering
            case .held: .held
            case .resumed: .resumed
            case .streaming: .streaming
            case .upgraded: .upgraded
            case .done: .done
            }
        }
    }

    enum Event {
        /// libmicrohttpd called the access handler without a piece of body (the head's call, the end).
        case accessCall
        /// libmicrohttpd called the access handler with a piece of body: kept while the body stays
        /// within `limit` bytes. The bytes are libmicrohttpd's, valid for this call only.
        case upload(UnsafeRawBufferPointer, limit: Int)
        /// The declared length passes the limit: the body is dropped as it comes.
        case bodyOverLimit
        /// The answer is not ready: the transport would suspend the connection, and finish `work`
        /// when the hold is over unless whoever ends it hands in other work.
        case hold(Work)
        /// The hold in progress will finish `work` instead (a render done with a delay of its own
        /// still to wait out, a long-poll's registration made). Too late once the hold is over.
        case holdWillFinish(Work)
        /// What was held for is due (a timer, a waiter, a forward, a departed client, `stop()`):
        /// `work` is what to finish now, handed in with the move so only the winner's is kept; nil
        /// finishes what the hold had (as `stop()` and the departed-client sweep do).
        case holdOver(Work?)
        /// The answer queued is a stream.
        case streamQueued
        /// The answer queued is an upgrade (a 101).
        case upgradeQueued
        /// libmicrohttpd's completion notice (a client can leave at any point).
        case completed
    }

    enum Action {
        /// Read the head: check its framing, set up what the request needs, ask for more.
        case readHead
        /// The piece of body is kept: ask for more.
        case keepBody
        /// The piece of body is dropped (or the body over the limit, with what was kept): ask for more.
        case discardBody
        /// Decide the answer and queue it, for this request body (handed over: the state keeps none).
        case answer(body: Data)
        /// Answer with this status now (a body over the limit).
        case refuse(status: Int)
        /// Finish this work, which the hold held or its ender handed in.
        case finishPending(Work)
        /// Suspend the connection and start the wait.
        case suspend
        /// The connection may not be suspended now: answer at once instead.
        case answerNow
        /// Resume the connection (this caller is the one that may).
        case resume
        /// Nothing to do: the event is noted.
        case none
        /// The event does not apply now (a resumer after another, a note out of order): do nothing,
        /// which is what keeps libmicrohttpd from aborting on a second resume.
        case ignore
        /// An access call libmicrohttpd does not make in this state: end the connection.
        case close
        /// Give up the request's state; `unfinished` is the work a resumed request never finished
        /// (libmicrohttpd saw its client gone on the resume and ended it without calling the handler).
        case release(unfinished: Work?)
    }

    private(set) var state: State

    init(_ state: State = .readingHead) {
        self.state = state
    }

    /// Moves by `event` and says what to do; an event that does not apply leaves the state as it was.
    mutating func handle(_ event: Event) -> Action {
        if case .upload(let piece, let limit) = event, case .readingBody(var body) = state {
            // The state lets go of the body before it grows, so appending does not copy it; past
            // the limit, what was kept is dropped with it.
            state = .discardingBody
            guard body.count + piece.count <= limit else { return .discardBody }
            body.append(contentsOf: piece)
            state = .readingBody(body)
            return .keepBody
        }
        switch (state, event) {
        case (.readingHead, .accessCall):
            state = .readingBody(Data())
            return .readHead
        case (.readingBody(let body), .accessCall):
            state = .answering
            return .answer(body: body)
        case (.readingBody, .bodyOverLimit), (.discardingBody, .bodyOverLimit), (.discardingBody, .upload):
            state = .discardingBody
            return .discardBody
        case (.discardingBody, .accessCall):
            state = .answering
            return .refuse(status: 413)
        case (.resumed(let work), .accessCall):
            state = .answering
            return .finishPending(work)
        case (_, .accessCall), (_, .upload):
            // (A piece of body while reading it is kept above.) The head's call with a body, a call while answering, held, streaming or upgraded, a
            // body after a resume: libmicrohttpd makes none of these.
            return .close
        case (.answering, .hold(let work)), (.streaming, .hold(let work)):
            state = .held(work)
            return .suspend
        case (_, .hold):
            return .answerNow
        case (.held, .holdWillFinish(let work)):
            state = .held(work)
            return .none
        case (.held(let held), .holdOver(let work)):
            state = .resumed(work ?? held)
            return .resume
        case (.answering, .streamQueued):
            state = .streaming
            return .none
        case (.answering, .upgradeQueued):
            state = .upgraded
            return .none
        case (.done, .completed):
            return .ignore
        case (.resumed(let work), .completed), (.held(let work), .completed):
            state = .done
            return .release(unfinished: work)
        case (_, .completed):
            state = .done
            return .release(unfinished: nil)
        case (_, .bodyOverLimit), (_, .holdWillFinish), (_, .holdOver), (_, .streamQueued), (_, .upgradeQueued):
            return .ignore
        }
    }
}

extension RequestLifecycle.State: Equatable where Work: Equatable {}
extension RequestLifecycle.Action: Equatable where Work: Equatable {}
extension RequestLifecycle.State: Sendable where Work: Sendable {}
extension RequestLifecycle.Action: Sendable where Work: Sendable {}
extension RequestLifecycle: Sendable where Work: Sendable {}
