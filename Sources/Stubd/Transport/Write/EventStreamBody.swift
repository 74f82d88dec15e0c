import Foundation
import StubdCore
import StubdEngine

/// One client's walk through a stub's server-sent events, as a `ResponseStream`: each read sends
/// every event that is due; when the next is not, the connection pauses and a timer (the wall clock)
/// or an alarm on the session's virtual clock resumes it, so an open stream holds no worker thread
/// between events. libmicrohttpd reads one connection from one thread at a time, so the walk needs
/// no lock; only `alarm` is also touched by `close`, on that same thread.
final class EventStreamBody: ResponseStream, @unchecked Sendable {
    let stream: EventStream
    /// The session's clock when it is virtual: events are due by its time, which only the admin API moves.
    let virtualClock: SessionClock?
    /// When the stream opened: on the wall clock (uptime nanoseconds), or on the virtual clock.
    let startedUptime = DispatchTime.now().uptimeNanoseconds
    let startedVirtual: Date?
    /// Nanoseconds after the start each event from `first` on is due (each delay sampled once, at the open).
    private var due: [UInt64] = []
    private let first: Int
    private var next: Int
    /// Where the ending cuts in (a drop or stall), or the end of the events.
    private let end: Int
    /// Bytes of `stream.frames[next]` already sent (a frame bigger than the buffer goes in parts).
    private var sentOfFrame = 0
    private var stalled = false
    private var alarm: Int?
    /// The session's streams, where each event sent is counted under `route` (a test waits for them).
    private let traffic: StreamTraffic
    private let route: String
    private var closed = false
    /// Where each event sent is journaled, under the stream's journal entry (nil: not journaled).
    private let journal: (log: StreamJournal, connection: Int)?
    private let clock: SessionClock
    /// Events sent so far: the next one's index in the journal.
    private var journaled = 0
    /// Tells the dashboard the session changed (the stream ended).
    private let changed: @Sendable () -> Void

    var blockSize: Int { 16 * 1024 }

    init(stream: EventStream, from first: Int, clock: SessionClock, traffic: StreamTraffic, route: String,
         journal: (StreamJournal, Int)? = nil, changed: @escaping @Sendable () -> Void = {}) {
        self.stream = stream
        self.journal = journal.map { (log: $0.0, connection: $0.1) }
        self.clock = clock
        self.changed = changed
        self.traffic = traffic
        self.route = route
        traffic.streamOpened(route: route)
        self.first = first
        next = first
        end = first + stream.sendable(from: first)
        virtualClock = clock.isVirtual ? clock : nil
        startedVirtual = clock.isVirtual ? clock.now() : nil
        var at: UInt64 = 0
        due = stream.events[first..<end].map { event in
            at &+= event.delay?.sample() ?? 0
            return at
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at position: UInt64, pause: StreamPause) -> StreamRead {
        var written = 0
        while next < end, isDue(next) {
            let frame = stream.frames[next]
            let n = min(buffer.count - written, frame.count - sentOfFrame)
            if n <= 0 { break }
            frame.withUnsafeBytes { raw in
                (buffer.baseAddress! + written).copyMemory(from: raw.baseAddress!.advanced(by: sentOfFrame), byteCount: n)
            }
            written += n
            sentOfFrame += n
            guard sentOfFrame == frame.count else { break }
            sentOfFrame = 0
            next += 1
            traffic.sent(String(decoding: frame, as: UTF8.self).split(separator: "\n").joined(separator: " "), route: route)
            if let journal {
                journaled += 1
                journal.log.record(.text(String(decoding: frame, as: UTF8.self)), .sent, at: clock.now(), connection: journal.connection,
                                   index: journaled)
            }
        }
        if written > 0 { return .bytes(written) }
        if next == end {
            switch stream.ending {
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
        if let virtualClock, let startedVirtual {
            guard let wake = pause.suspendUntilWoken() else { return .end }
            if let alarm { virtualClock.cancelAlarm(alarm) }
            alarm = virtualClock.alarm(at: startedVirtual.addingTimeInterval(Double(due[next - first]) / 1e9), wake)
            // Due already (the clock moved in between): go on at once.
            if alarm == nil { wake() }
            return .paused
        }
        let now = DispatchTime.now().uptimeNanoseconds - startedUptime
        return pause.suspend(forNanoseconds: max(due[next - first] &- now, 1_000_000)) ? .paused : .end
    }

    private func isDue(_ index: Int) -> Bool {
        let at = due[index - first]
        if at == 0 { return true }
        if let virtualClock, let startedVirtual {
            return virtualClock.now() >= startedVirtual.addingTimeInterval(Double(at) / 1e9)
        }
        return DispatchTime.now().uptimeNanoseconds - startedUptime >= at
    }

    /// The stream is over or the client left: an alarm still set on the virtual clock goes.
    func close() {
        if let alarm { virtualClock?.cancelAlarm(alarm) }
        if !closed {
            // Coverage: how far this stream got, and whether it sent every event before its ending.
            traffic.streamReached(next, ended: next == end, route: route)
            traffic.streamClosed(route: route)
            changed()
        }
        closed = true
    }
}
