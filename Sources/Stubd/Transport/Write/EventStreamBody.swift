import Foundation
import StubdCore
import StubdEngine

/// One client's walk through a stub's server-sent events, as a `ResponseStream`: each read sends
/// every event that is due; when the next is not, the connection pauses and a timer (the wall clock)
/// or an alarm on the session's virtual clock resumes it, so an open stream holds no worker thread
/// between events. Which event is due, and the counting and journaling of each, is the engine's
/// `EventWalk`; this carries the bytes. libmicrohttpd reads one connection from one thread at a
/// time, so its own state needs no lock; only `alarm` is also touched by `close`, on that same thread.
final class EventStreamBody: ResponseStream, @unchecked Sendable {
    /// Which event is due, and each one sent counted and journaled (shared with the in-process front).
    let walk: EventWalk
    /// Bytes of `stream.frames[walk.next]` already sent (a frame bigger than the buffer goes in parts).
    private var sentOfFrame = 0
    private var stalled = false
    private var alarm: Int?
    /// Tells the dashboard the session changed (the stream ended).
    private let changed: @Sendable () -> Void

    var blockSize: Int { 16 * 1024 }

    init(stream: EventStream, from first: Int, clock: SessionClock, traffic: StreamTraffic, route: String,
         journal: (StreamJournal, Int)? = nil, changed: @escaping @Sendable () -> Void = {}) {
        walk = EventWalk(stream: stream, from: first, clock: clock, traffic: traffic, route: route,
                         journal: journal.map { (log: $0.0, connection: $0.1) })
        self.changed = changed
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at position: UInt64, pause: StreamPause) -> StreamRead {
        var written = 0
        var next = walk.next
        while next < walk.end, walk.isDue(next) {
            let frame = walk.stream.frames[next]
            let n = min(buffer.count - written, frame.count - sentOfFrame)
            if n <= 0 { break }
            frame.withUnsafeBytes { raw in
                (buffer.baseAddress! + written).copyMemory(from: raw.baseAddress!.advanced(by: sentOfFrame), byteCount: n)
            }
            written += n
            sentOfFrame += n
            guard sentOfFrame == frame.count else { break }
            sentOfFrame = 0
            walk.sent(next)
            next += 1
        }
        if written > 0 { return .bytes(written) }
        if next == walk.end {
            switch walk.stream.ending {
            case .complete: return .end // the last chunk: a clean end
            case .drop: return .cut // closed without the last chunk
            case .stall:
                // Held like a `hang`, then closed; the client's read timeout should fire first.
                if stalled { return .cut }
                stalled = true
                return pause.suspend(forNanoseconds: NetworkBehaviour.hangLimitNanoseconds) ? .paused : .cut
            }
        }
        // A client gone while its stream waited (the departure watch resumed it): nothing more to send.
        if pause.clientHasLeft { return .cut }
        if let virtualClock = walk.virtualClock, let dueDate = walk.virtualDueDate(next) {
            guard let wake = pause.suspendUntilWoken() else { return .end }
            if let alarm { virtualClock.cancelAlarm(alarm) }
            alarm = virtualClock.alarm(at: dueDate, wake)
            // Due already (the clock moved in between): go on at once.
            if alarm == nil { wake() }
            return .paused
        }
        return pause.suspend(forNanoseconds: max(walk.nanosecondsUntilDue(next), 1_000_000)) ? .paused : .end
    }

    /// The stream is over or the client left: an alarm still set on the virtual clock goes.
    func close() {
        if let alarm { walk.virtualClock?.cancelAlarm(alarm) }
        // Coverage: how far this stream got, and whether it sent every event before its ending.
        if walk.close() { changed() }
    }
}
