import CMicroHTTPD
import Foundation
import StubdCore
import StubdProtocol
import Synchronization

extension RequestRouter {
    /// A suspended connection (a `hang`, a long-poll, a long delay) does not notice its client
    /// leave, and would hold its place under the connection cap until its timer ran out. Once a
    /// second each is peeked at; one whose client closed or reset is resumed, and so finished.
    static func releaseDeparted(from suspended: SuspendedRequests) {
        let departed: [RequestContext] = suspended.withLock { state in
            state.items.values.filter { $0.socket >= 0 && Sockets.peerHasLeft($0.socket) }
        }
        // Resumed as they are: a hang closes, a delayed answer or a long-poll's goes nowhere and closes.
        for context in departed { resume(context, in: suspended) }
    }

    /// Checks for a stop, suspends and registers under one lock, so `stop()` can neither miss this
    /// connection nor resume it before it is suspended (MHD aborts on either).
    func suspend(_ context: RequestContext, _ connection: ConnectionHandle) -> Bool {
        suspended.withLock { state in
            if state.stopping { return false }
            guard context.lifecycle.handle(.hold) == .suspend else { return false }
            context.connection = connection
            if context.socket < 0 { context.socket = connection.fd }
            connection.suspend()
            state.items[ObjectIdentifier(context)] = context
            return true
        }
    }

    /// Resumes at most once, from any thread; MHD then calls the handler again on its own thread.
    func resume(_ context: RequestContext) { RequestRouter.resume(context, in: suspended) }

    static func resume(_ context: RequestContext, in suspended: SuspendedRequests) {
        suspended.withLock { state in
            guard context.lifecycle.handle(.holdOver) == .resume else { return }
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
        for context in waiting { resume(context) }
        return waiting.count
    }

    func schedule(after nanoseconds: UInt64, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(min(nanoseconds, UInt64(Int.max)))), execute: work)
    }

    /// Goes on with a request whose connection was resumed: what it was waiting for is now due.
    func finish(_ pending: RequestContext.Pending, _ context: RequestContext, _ connection: borrowing Connection) -> MHD_Result {
        switch pending {
        case .answer(let answer):
            return deliver(answer, context, connection)
        case let .adminHold(hold, registration):
            if let registration { _ = hold.cancel(registration) }
            return finishHold(hold, context, connection)
        case .response(let response):
            return write(response, connection)
        }
    }
}
