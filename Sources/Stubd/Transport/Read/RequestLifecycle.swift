/// Where one request is in its life on a connection, and which moves it may make next.
///
/// libmicrohttpd calls the access handler several times per request (the head, each piece of body,
/// the end of the body, and once more after each resume), and timers, waiters, a forward and
/// `stop()` may resume a suspended connection from other threads, each at most once. Which call
/// may do what is decided here, with no socket in sight, so the rules are tested on their own
/// (`RequestLifecycleTests`).
struct RequestLifecycle: Equatable, Sendable {
    enum Phase: UInt8, Equatable, Sendable {
        /// The head is read; nothing answered yet.
        case headers
        /// Body bytes are arriving.
        case body
        /// The whole request is in: an answer is being decided or queued.
        case answering
        /// The connection is suspended: a delay, a hang, a long-poll, a forward or a render is pending.
        case suspended
        /// Resumed (by a timer, a waiter, a forward, a departed client or `stop()`); libmicrohttpd
        /// calls the handler again, which finishes what was pending.
        case resumed
        /// libmicrohttpd's completion notice: nothing more happens to this request.
        case done
    }

    private(set) var phase: Phase

    init(_ phase: Phase = .headers) {
        self.phase = phase
    }

    /// A piece of body arrived. Only before the answer: after it, libmicrohttpd sends no more.
    @discardableResult
    mutating func receiveBody() -> Bool {
        guard phase == .headers || phase == .body else { return false }
        phase = .body
        return true
    }

    /// The handler is called with the request complete, first or after a resume.
    @discardableResult
    mutating func answer() -> Bool {
        switch phase {
        case .headers, .body, .resumed:
            phase = .answering
            return true
        case .answering, .suspended, .done:
            return false
        }
    }

    /// The connection is about to be suspended; false when it may not be (not answering).
    mutating func suspend() -> Bool {
        guard phase == .answering else { return false }
        phase = .suspended
        return true
    }

    /// True for the one caller that resumes the connection: later or early callers (a timer after
    /// `stop()`, a waiter after the timeout) are told no, since resuming twice, or a connection
    /// not suspended, makes libmicrohttpd abort.
    mutating func resume() -> Bool {
        guard phase == .suspended else { return false }
        phase = .resumed
        return true
    }

    /// The completion notice, whatever the phase (a client can leave at any point).
    mutating func complete() {
        phase = .done
    }
}
