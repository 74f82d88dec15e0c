import Foundation
import StubdCore
import StubdProtocol
import HTTPTypes
import Synchronization

extension RequestRouter {
    /// A suspended connection (a `hang`, a long-poll, a long delay) does not notice its client
    /// leave, and would hold its place under the connection cap until its timer ran out. Once a
    /// second each is peeked at; one whose client closed or reset is resumed, and so finished.
    static func releaseDeparted(from suspended: SuspendedRequests) {
        let departed: [RequestContext] = suspended.withLock { state in
            state.items.values.filter { $0.socket >= 0 && Sockets.peerHasLeft($0.socket) }
        }
        // Resumed with what they hold: a hang closes, a delayed answer or a long-poll's goes nowhere and closes.
        for context in departed { resume(context, finishing: nil, in: suspended) }
    }

    /// Checks for a stop, suspends and registers under one lock, so `stop()` can neither miss this
    /// connection nor resume it before it is suspended (MHD aborts on either). `work` is what the
    /// hold finishes unless whoever ends it hands in other work.
    func suspend(_ context: RequestContext, finishing work: PendingWork, _ connection: ConnectionHandle) -> Bool {
        suspended.withLock { state in
            if state.stopping { return false }
            guard case .suspend = context.handle(.hold(work)) else { return false }
            context.connection = connection
            if context.socket < 0 { context.socket = connection.fd }
            connection.suspend()
            state.items[ObjectIdentifier(context)] = context
            return true
        }
    }

    /// Resumes at most once, from any thread; MHD then calls the handler again on its own thread,
    /// which finishes `work` (nil: what the hold holds). The work goes in with the move to
    /// `resumed`, so of racing resumers the one that resumes is the one whose work is finished.
    func resume(_ context: RequestContext, finishing work: PendingWork?) {
        RequestRouter.resume(context, finishing: work, in: suspended)
    }

    static func resume(_ context: RequestContext, finishing work: PendingWork?, in suspended: SuspendedRequests) {
        suspended.withLock { state in
            guard case .resume = context.handle(.holdOver(work)) else { return }
            state.items.removeValue(forKey: ObjectIdentifier(context))
            context.connection?.resume()
        }
    }

    /// For `stop()`: no new suspensions, and every suspended request resumed so it can finish.
    func resumeAllForStop() -> Int {
        departures.cancel()
        let waiting: [RequestContext] = suspended.withLock { state in
            state.stopping = true
            return Array(state.items.values)
        }
        for context in waiting { resume(context, finishing: nil) }
        return waiting.count
    }

    /// The answer of a request whose hold `stop()` ended before its answer was made (a forward
    /// waiting for the real API, a render off the worker).
    static var stopping: GeneratedResponse { .problem(503, title: "Stopping", detail: "stubd is stopping") }

    func schedule(after nanoseconds: UInt64, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(min(nanoseconds, UInt64(Int.max)))), execute: work)
    }

    /// Goes on with a request whose connection was resumed: what it was waiting for is now due.
    func finish(_ work: PendingWork, _ context: RequestContext, _ connection: borrowing Connection) -> CallResult {
        switch work {
        case let .answer(answer, line):
            if let line { context.logLine = line }
            return deliver(answer, context, connection)
        case let .adminHold(hold, registration):
            if let registration { _ = hold.cancel(registration) }
            return finishHold(hold, context, connection)
        case .response(let response):
            return write(response, connection)
        }
    }
}
