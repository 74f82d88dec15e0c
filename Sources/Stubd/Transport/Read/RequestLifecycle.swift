/// Where one request is in its life on a connection: each event (a call of libmicrohttpd's, a
/// hold starting or ending, the completion notice) moves it and says what the transport must do,
/// as Hummingbird's `HTTPConnectionStateHandler.StateMachine` does for its channel.
///
/// libmicrohttpd calls the access handler several times per request (the head, each piece of body,
/// the end of the body, and once more after each resume), and timers, waiters, a forward and
/// `stop()` may end a hold from other threads, each at most once. Which event may do what is
/// decided here, with no socket in sight, so every transition, the illegal ones too, is tested on
/// its own (`RequestLifecycleTests`); the C callbacks feed events and carry out the actions.
/// One byte of state, one switch: a plain request makes it on the stack (`RequestSlot` keeps no
/// object for one), a tracked one keeps it in its context (`SharedRequestLifecycle`).
struct RequestLifecycle: Equatable, Sendable {
    enum State: UInt8, Equatable, Sendable, CaseIterable {
        /// Nothing read yet: the next access call is the head's.
        case readingHead
        /// The head is read: pieces of body, or the end of the request, come next.
        case readingBody
        /// The body passed the limit: the rest is read and dropped, and the request refused at its end.
        case discardingBody
        /// The whole request is in: an answer is being decided or queued.
        case answering
        /// The answer is held with the connection suspended (a delay, a hang, a long-poll, a forward,
        /// a render off the worker, a stream's pause).
        case held
        /// The hold is over and the connection resumed: libmicrohttpd calls the handler again, which
        /// finishes what was pending.
        case resumed
        /// The answer's head is queued and its body is read as the socket takes it.
        case streaming
        /// A 101 is queued: the socket is handed over once it is sent.
        case upgraded
        /// libmicrohttpd's completion notice: nothing more happens to this request.
        case done
    }

    enum Event: Hashable, Sendable {
        /// libmicrohttpd called the access handler, with a piece of body (`upload`) or without.
        case accessCall(upload: Bool)
        /// The body kept so far and this piece pass the limit (or the declared length does).
        case bodyOverLimit
        /// The answer is not ready: the transport would suspend the connection.
        case hold
        /// What was held for is due (a timer, a waiter, a forward, a departed client, `stop()`).
        case holdOver
        /// The answer queued is a stream.
        case streamQueued
        /// The answer queued is an upgrade (a 101).
        case upgradeQueued
        /// libmicrohttpd's completion notice (a client can leave at any point).
        case completed
    }

    enum Action: Equatable, Sendable {
        /// Read the head: check its framing, set up what the request needs, ask for more.
        case readHead
        /// Keep this piece of body and ask for more.
        case keepBody
        /// Drop this piece of body and ask for more.
        case discardBody
        /// Decide the answer and queue it.
        case answer
        /// Answer with this status now (a body over the limit).
        case refuse(status: Int)
        /// Finish what was pending when the connection was suspended.
        case finishPending
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
        /// Give up the request's state.
        case release
    }

    private(set) var state: State

    init(_ state: State = .readingHead) {
        self.state = state
    }

    /// Moves by `event` and says what to do; an event that does not apply leaves the state as it was.
    mutating func handle(_ event: Event) -> Action {
        switch (state, event) {
        case (.readingHead, .accessCall(upload: false)):
            state = .readingBody
            return .readHead
        case (.readingBody, .accessCall(upload: true)):
            return .keepBody
        case (.readingBody, .accessCall(upload: false)):
            state = .answering
            return .answer
        case (.readingBody, .bodyOverLimit), (.discardingBody, .bodyOverLimit), (.discardingBody, .accessCall(upload: true)):
            state = .discardingBody
            return .discardBody
        case (.discardingBody, .accessCall(upload: false)):
            state = .answering
            return .refuse(status: 413)
        case (.resumed, .accessCall(upload: false)):
            state = .answering
            return .finishPending
        case (_, .accessCall):
            // The head's call with a body, a call while answering, held, streaming or upgraded, a
            // body after a resume: libmicrohttpd makes none of these.
            return .close
        case (.answering, .hold), (.streaming, .hold):
            state = .held
            return .suspend
        case (_, .hold):
            return .answerNow
        case (.held, .holdOver):
            state = .resumed
            return .resume
        case (.answering, .streamQueued):
            state = .streaming
            return .none
        case (.answering, .upgradeQueued):
            state = .upgraded
            return .none
        case (.done, .completed):
            return .ignore
        case (_, .completed):
            state = .done
            return .release
        case (_, .bodyOverLimit), (_, .holdOver), (_, .streamQueued), (_, .upgradeQueued):
            return .ignore
        }
    }
}
