import Foundation
import StubdCore
import StubdEngine
import StubdProtocol

/// An answer over `--max-body`, passed to the client as it arrives instead of held whole: the
/// forwarder's thread appends, libmicrohttpd's content reader takes. When the reader finds nothing
/// yet, it suspends the connection and the next append (or the end) resumes it, so no worker waits.
/// When the client is behind, `append` refuses and the forwarder pauses its transfer; the reader
/// wakes it once it has taken most of what waits. So a slow client, an endless body or a
/// decompression bomb holds at most `highWater` bytes here, not whatever the target sends.
final class StreamedBody: ResponseStream, @unchecked Sendable {
    /// Past this many bytes waiting for the client, appends are refused (the transfer pauses).
    static let highWater = 256 * 1024
    /// Down to this many, a paused transfer is woken.
    static let lowWater = 64 * 1024

    enum Appended {
        case taken
        /// The client is behind: nothing was taken; pause and offer the same bytes again when woken.
        case full
        /// The client went away: the transfer should stop.
        case abandoned
    }

    private struct State {
        /// Waiting bytes are `pending[head...]`: taking from the front moves `head`, not the bytes.
        var pending: [UInt8]
        var head = 0
        var waiting: Int { pending.count - head }
        var finished = false
        var failed = false
        /// The suspended connection's wake-up, set by a reader that found nothing.
        var waiter: (@Sendable () -> Void)?
        /// The client went away: the forwarder stops downloading.
        var abandoned = false
        /// Set by a refused append; the reader wakes the writer once it has drained to `lowWater`.
        var writerPaused = false
        /// Wakes the forwarder's thread (from any thread); nil once the transfer is over.
        var wakeWriter: (@Sendable () -> Void)?
    }
    private let state: Locked<State>

    let blockSize: Int

    /// `initial`: what the forwarder held before the answer outgrew `--max-body`.
    init(initial: Data, blockSize: Int = 64 * 1024, wakeWriter: @escaping @Sendable () -> Void) {
        state = Locked(State(pending: [UInt8](initial), wakeWriter: wakeWriter))
        self.blockSize = blockSize
    }

    /// From the forwarder's thread.
    func append(_ bytes: UnsafeRawBufferPointer) -> Appended {
        let (wake, outcome) = state.withLock { s -> ((@Sendable () -> Void)?, Appended) in
            if s.abandoned { return (nil, .abandoned) }
            if s.waiting >= StreamedBody.highWater {
                s.writerPaused = true
                return (nil, .full)
            }
            if s.head > 0, s.head >= s.waiting {
                // Most of the array is already sent: drop it before growing (an amortised copy of at most highWater).
                s.pending.removeFirst(s.head)
                s.head = 0
            }
            s.pending.append(contentsOf: bytes.bindMemory(to: UInt8.self))
            defer { s.waiter = nil }
            return (s.waiter, .taken)
        }
        wake?()
        return outcome
    }

    /// From the forwarder's thread: the client has room again (a paused transfer may go on).
    var hasRoom: Bool { state.withLock { $0.waiting <= StreamedBody.lowWater } }

    /// From the forwarder's thread: the client went away.
    var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// The transfer ended (or broke: the client sees the body cut short). No wake-ups after this.
    func finish(failed: Bool) {
        let wake = state.withLock { s -> (@Sendable () -> Void)? in
            s.finished = true
            s.failed = failed
            s.wakeWriter = nil
            defer { s.waiter = nil }
            return s.waiter
        }
        wake?()
    }

    func abandon() {
        // Woken under the lock: `finish` clears wakeWriter under it too, so the wake-up never
        // reaches a transfer that is already cleaned up.
        state.withLock { s in
            s.abandoned = true
            s.wakeWriter?()
        }
    }

    /// The answer is over or the client left: a download still going stops.
    func close() { abandon() }

    /// libmicrohttpd's reader: bytes copied, or a pause until the next append (or the end), or the
    /// end. The pause is taken under the same lock an append takes, so no wake-up is lost in between.
    func read(into buffer: UnsafeMutableRawBufferPointer, at position: UInt64, pause: StreamPause) -> StreamRead {
        state.withLock { s -> StreamRead in
            if s.waiting > 0 {
                let n = min(buffer.count, s.waiting)
                s.pending.withUnsafeBytes { raw in
                    buffer.baseAddress!.copyMemory(from: raw.baseAddress!.advanced(by: s.head), byteCount: n)
                }
                s.head += n
                if s.head == s.pending.count {
                    s.pending.removeAll(keepingCapacity: s.pending.capacity <= 2 * StreamedBody.highWater)
                    s.head = 0
                }
                if s.writerPaused, s.waiting <= StreamedBody.lowWater {
                    s.writerPaused = false
                    s.wakeWriter?()
                }
                return .bytes(n)
            }
            if s.finished { return s.failed ? .cut : .end }
            guard let wake = pause.suspendUntilWoken() else { return .cut } // stopping: the body ends here
            s.waiter = wake
            return .paused
        }
    }
}
