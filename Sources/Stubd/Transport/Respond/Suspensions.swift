import Foundation
import StubdProtocol

/// The requests whose connection is suspended (a delay, a hang, a long-poll, a render, a forward, a
/// stream's pause), registered so that `stop()` can resume every one and a client that left while
/// suspended is noticed. The router, the writer and a stream's pause share one; none of them calls
/// back into the others to suspend or resume.
final class Suspensions: @unchecked Sendable {
    /// By context; `stopping` once `stop()` began.
    private typealias Registered = Locked<(stopping: Bool, items: [ObjectIdentifier: RequestContext])>
    private let registered = Registered((false, [:]))
    /// Looks for clients that left while their connection was suspended (see `releaseDeparted`).
    private let departures: any DispatchSourceTimer

    init() {
        departures = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        departures.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        // The registry, not this object: the timer would otherwise keep it alive, and a weak reference
        // gives an object a side table, which slows every retain of it on the workers.
        departures.setEventHandler { [registered] in Suspensions.releaseDeparted(from: registered) }
        departures.resume()
    }

    /// A suspended connection (a `hang`, a long-poll, a long delay) does not notice its client
    /// leave, and would hold its place under the connection cap until its timer ran out. Once a
    /// second each is peeked at; one whose client closed or reset is resumed, and so finished.
    private static func releaseDeparted(from registered: Registered) {
        let departed: [RequestContext] = registered.withLock { state in
            state.items.values.filter { $0.socket >= 0 && Sockets.peerHasLeft($0.socket) }
        }
        // Resumed with what they hold: a hang closes, a delayed answer or a long-poll's goes nowhere and closes.
        for context in departed { resume(context, finishing: nil, in: registered) }
    }

    /// Checks for a stop, suspends and registers under one lock, so `stop()` can neither miss this
    /// connection nor resume it before it is suspended (MHD aborts on either). `work` is what the
    /// hold finishes unless whoever ends it hands in other work. False when stopping: answer now.
    func suspend(_ context: RequestContext, finishing work: PendingWork, _ connection: ConnectionHandle) -> Bool {
        registered.withLock { state in
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
        Suspensions.resume(context, finishing: work, in: registered)
    }

    private static func resume(_ context: RequestContext, finishing work: PendingWork?, in registered: Registered) {
        registered.withLock { state in
            guard case .resume = context.handle(.holdOver(work)) else { return }
            state.items.removeValue(forKey: ObjectIdentifier(context))
            context.connection?.resume()
        }
    }

    /// For `stop()`: no new suspensions, and every suspended request resumed so it can finish.
    func resumeAllForStop() -> Int {
        departures.cancel()
        let waiting: [RequestContext] = registered.withLock { state in
            state.stopping = true
            return Array(state.items.values)
        }
        for context in waiting { resume(context, finishing: nil) }
        return waiting.count
    }

    /// Runs `work` after `nanoseconds` on a Dispatch thread (the end of a delay, a pause, a hold's timeout).
    static func schedule(after nanoseconds: UInt64, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(min(nanoseconds, UInt64(Int.max)))), execute: work)
    }
}
