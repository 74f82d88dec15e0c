import CMicroHTTPD
import Foundation
import StubdCore

/// An answer over `--max-body`, passed to the client as it arrives instead of held whole: the
/// forwarder's thread appends, libmicrohttpd's content reader takes. When the reader finds nothing
/// yet, it suspends the connection and the next append (or the end) resumes it, so no worker waits.
final class StreamedBody: @unchecked Sendable {
    private struct State {
        var pending = Data()
        var finished = false
        var failed = false
        /// The suspended connection's wake-up, set by a reader that found nothing.
        var waiter: (@Sendable () -> Void)?
        /// The client went away: the forwarder stops downloading.
        var abandoned = false
    }
    private let state = Locked(State())

    /// From the forwarder's thread. False once the client is gone (the transfer should stop).
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let (wake, alive) = state.withLock { s -> ((@Sendable () -> Void)?, Bool) in
            if s.abandoned { return (nil, false) }
            s.pending.append(bytes.bindMemory(to: UInt8.self))
            defer { s.waiter = nil }
            return (s.waiter, true)
        }
        wake?()
        return alive
    }

    /// The transfer ended (or broke: the client sees the body cut short).
    func finish(failed: Bool) {
        let wake = state.withLock { s -> (@Sendable () -> Void)? in
            s.finished = true
            s.failed = failed
            defer { s.waiter = nil }
            return s.waiter
        }
        wake?()
    }

    func abandon() { state.withLock { $0.abandoned = true } }

    /// libmicrohttpd's reader: bytes copied, or 0 after suspending the connection, or the end.
    /// `suspend` suspends it and returns how to resume it (nil when the server is stopping); it
    /// runs under the same lock an append takes, so no wake-up is lost in between.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int, suspend: () -> (@Sendable () -> Void)?) -> Int {
        state.withLock { s -> Int in
            if !s.pending.isEmpty {
                let n = min(max, s.pending.count)
                s.pending.withUnsafeBytes { raw in
                    buffer.update(from: raw.baseAddress!.assumingMemoryBound(to: CChar.self), count: n)
                }
                s.pending.removeFirst(n)
                return n
            }
            if s.finished { return s.failed ? -2 : -1 } // MHD_CONTENT_READER_END_WITH_ERROR / END_OF_STREAM
            guard let wake = suspend() else { return -2 } // stopping: the body ends here
            s.waiter = wake
            return 0
        }
    }
}

/// The content reader's context: the body and the connection it goes to.
final class StreamedReply: @unchecked Sendable {
    let body: StreamedBody
    let connection: OpaquePointer
    unowned let router: RequestRouter

    init(body: StreamedBody, connection: OpaquePointer, router: RequestRouter) {
        self.body = body
        self.connection = connection
        self.router = router
    }

    static let reader: MHD_ContentReaderCallback = { cls, _, buffer, max in
        let reply = Unmanaged<StreamedReply>.fromOpaque(cls!).takeUnretainedValue()
        return reply.body.read(into: buffer!, max: max) {
            guard let context = reply.router.suspendUntilResumed(reply.connection) else { return nil }
            let router = reply.router
            return { router.resume(context) }
        }
    }

    /// The answer is over or the client left: a download still going stops.
    static let release: MHD_ContentReaderFreeCallback = { cls in
        let reply = Unmanaged<StreamedReply>.fromOpaque(cls!).takeRetainedValue()
        reply.body.abandon()
    }
}
