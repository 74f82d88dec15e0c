import Dispatch
import Foundation
import StubdCore
import StubdEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open WebSocket: reads the client's frames (`WebSocketFrameDecoder`, `WebSocketMessageAssembler`),
/// answers pings and matching messages, sends the script's timeline and closes, as its stub says.
///
/// Holds no thread: a dispatch read source wakes it when the client sends, a write source when a
/// client that stopped reading takes bytes again, and a timer (the wall clock) or an alarm on the
/// session's virtual clock when the next scripted message is due. Everything runs on the
/// connection's serial queue, so its state needs no lock. Memory is bounded: at most one frame of
/// the client's (`maxMessageBytes`) and `maxPendingOutputBytes` of ours; a client that does not
/// read past that is dropped.
final class WebSocketConnection: UpgradedConnection, WebSocketPeer, @unchecked Sendable {
    /// Unsent bytes a client may leave with us before it is dropped (it is not reading).
    static let maxPendingOutputBytes = 1 << 20
    /// How long the server waits for the client's close after sending its own.
    static let closeWaitSeconds = 2.0
    /// Scripted sends and closes a socket may have waiting (replies whose `after` has not come): a
    /// client that makes more is closed with 1008, since each costs memory until it is due (an
    /// hour's wait, flooded, held every message's reply).
    static let maxPendingActions = 10_000

    private enum State { case open, closing, finished }
    private enum Action {
        case send(WebSocketPayload)
        case close(WebSocketScriptClose)
    }

    private let script: WebSocketScript
    /// The session's clock when it is virtual: scripted messages are due by its time.
    private let virtualClock: SessionClock?
    /// The session's clock, which times what the app sent.
    private let clock: SessionClock
    private let registry: WebSocketRegistry
    /// The session's streams, where this socket is open (so a test can push to it) and its messages are counted.
    private let traffic: StreamTraffic
    /// The route's key, under which `traffic` counts this socket.
    private let route: String
    /// Where its messages are journaled, under its journal entry's id (nil: not journaled).
    private let journal: (log: StreamJournal, connection: Int)?
    /// Messages journaled so far, both ways: the next one's index.
    private var journaled = 0
    /// Tells the dashboard the session changed (a message from the app, the close).
    private let changed: @Sendable () -> Void
    /// Serial, on the shared non-overcommitting pool: a thousand sockets waking at once share a few
    /// threads instead of each getting one (a queue of its own on the overcommitting pool did: 76
    /// threads for 1,000 sockets, Benchmarks/websocket_sockets.py).
    private let queue = DispatchQueue(label: "stubd.websocket", target: .global())
    private var fd: Int32 = -1
    private var handle: UpgradeHandle?
    private var decoder: WebSocketFrameDecoder
    private var assembler: WebSocketMessageAssembler
    private var state = State.open
    /// After a protocol error: the client's bytes are no longer read as frames.
    private var ignoringInput = false
    private var finishWhenFlushed = false
    private var output: [UInt8] = []
    private var outputStart = 0
    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var writeSourceRunning = false
    private var cancelsLeft = 0
    /// Scripted actions not yet done, due by `now()`'s scale.
    private var timeline = WebSocketTimeline<Action>()
    private var generation = 0
    private var alarm: Int?
    private var timer: (any DispatchSourceTimer)?
    /// When the armed timer or alarm rings.
    private var armedDue: Double?
    private var opened = 0.0
    /// False until `start` has the socket; pushes meanwhile wait in `early`.
    private var started = false
    /// A test's pushes that came before libmicrohttpd handed the socket over: sent right after the open.
    private var early: [WebSocketPayload] = []

    /// Made when the request matched, and open to pushes from here on (`traffic.opened`), not only
    /// once libmicrohttpd hands over the socket: between the two the 101 is written and the upgrade
    /// handler runs on a worker, so a test that saw the hit (`hits/wait`) and pushed at once got a
    /// 409 "no WebSocket open". Pushes from the match (`StreamTraffic.connecting`, before the hit is
    /// counted) to here come back from `opened`; those and any before `start` are sent right after
    /// the script's open messages. (Counting the hit later instead would move it out of the engine,
    /// which counts every route's hit as it matches.) A client gone before the
    /// 101 went out never starts: one gone during a `delay` gets no socket (`RequestRouter.webSocket`,
    /// `RequestRouter.abandonUnsentWebSocket`), but one gone in the moment between the socket's making
    /// and the 101's write stays listed as open in its session (libmicrohttpd says nothing of an
    /// upgrade response it drops: see `ResponseWriter.upgrade`).
    init(script: WebSocketScript, clock: SessionClock, registry: WebSocketRegistry, traffic: StreamTraffic, route: String,
         journal: (StreamJournal, Int)? = nil, changed: @escaping @Sendable () -> Void = {}) {
        self.script = script
        self.journal = journal.map { (log: $0.0, connection: $0.1) }
        self.changed = changed
        virtualClock = clock.isVirtual ? clock : nil
        self.clock = clock
        self.registry = registry
        self.traffic = traffic
        self.route = route
        decoder = WebSocketFrameDecoder(maxFrameBytes: script.maxMessageBytes)
        assembler = WebSocketMessageAssembler(maxMessageBytes: script.maxMessageBytes)
        // On the queue: from `opened` on, a push (`push`, on the queue) may append to `early`, and the
        // pushes held while connecting must come first and not be written over. ThreadSanitizer saw
        // the race in WebSocketPushTests (this assignment against a push's append), and the push was lost.
        queue.sync { early = traffic.opened(self, route: route) }
    }

    func start(socket: Int32, extra: [UInt8], handle: UpgradeHandle) {
        // Our own descriptor: libmicrohttpd closes its one when the handle is given back, and ours
        // stays valid (and registered with dispatch) until our sources are cancelled.
        let own = dup(socket)
        registry.add(self)
        queue.async { [self] in
            self.handle = handle
            fd = own
            guard own >= 0 else {
                state = .finished
                return release()
            }
            _ = fcntl(own, F_SETFD, FD_CLOEXEC)
            _ = fcntl(own, F_SETFL, fcntl(own, F_GETFL) | O_NONBLOCK)
            Sockets.suppressBrokenPipe(own)
            let source = DispatchSource.makeReadSource(fileDescriptor: own, queue: queue)
            source.setEventHandler { [unowned self] in readable() }
            source.setCancelHandler { [unowned self] in sourceCancelled() }
            readSource = source
            source.activate()
            opened = now()
            for message in script.messages { schedule(after: message.after, .send(message.payload)) }
            if let close = script.close { schedule(after: close.after, .close(close)) }
            started = true
            if !extra.isEmpty { received(extra[...]) }
            runDue()
            for payload in early where state == .open { sendMessage(payload) }
            early = []
        }
    }

    /// A test's message (`POST /__stubd/websockets/{name}/messages`), sent now unless the socket is closing.
    func push(_ payload: WebSocketPayload) {
        queue.async { [self] in
            guard state == .open else { return }
            guard started else { return early.append(payload) }
            sendMessage(payload)
        }
    }

    /// The server is stopping: a close (1001) if the socket is open, then the socket goes back.
    func goAway() {
        queue.async { [self] in
            guard state != .finished else { return }
            if state == .open { enqueue(.close(1001, reason: "stubd is stopping")) }
            finish()
        }
    }

    // MARK: Reading

    private func readable() {
        guard state != .finished else { return }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            received(buffer[..<n])
        } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            // The client left (or its connection broke): nothing to say to it.
            finish()
        }
    }

    private func received(_ bytes: ArraySlice<UInt8>) {
        guard !ignoringInput else { return }
        decoder.append(bytes)
        do throws(WebSocketProtocolError) {
            while let frame = try decoder.next() {
                guard state != .finished, !ignoringInput else { return }
                if let message = try assembler.add(frame) { handle(message) }
            }
        } catch {
            refuse(error)
        }
    }

    /// A frame or message the protocol does not allow: a close with its code, then the connection ends.
    private func refuse(_ error: WebSocketProtocolError) {
        ignoringInput = true
        if state == .open { enqueue(.close(error.code, reason: error.reason)) }
        state = .closing
        finishWhenFlushed = true
        flush()
    }

    private func handle(_ message: WebSocketMessage) {
        switch message {
        case .ping(let payload):
            if state == .open { enqueue(WebSocketFrame(opcode: .pong, payload: payload)) }
        case .pong:
            break
        case .close(let code, let reason):
            if state == .open {
                // Echo the client's code (§5.5.1), then close the TCP connection: the server closes first.
                enqueue(code.map { .close($0, reason: reason) } ?? WebSocketFrame(opcode: .close, payload: []))
            }
            state = .closing
            ignoringInput = true
            finishWhenFlushed = true
            flush()
        case .text(let text):
            traffic.received(.text(text), at: clock.now(), route: route)
            journal(.text(text), .received)
            changed()
            answer(message)
        case .binary(let bytes):
            traffic.received(.binary(bytes), at: clock.now(), route: route)
            journal(.binary(bytes), .received)
            changed()
            answer(message)
        }
    }

    /// Keeps the message under the socket's journal entry, on the session's clock.
    private func journal(_ payload: WebSocketPayload, _ direction: StreamJournal.Direction) {
        guard let journal else { return }
        journaled += 1
        journal.log.record(payload, direction, at: clock.now(), connection: journal.connection, index: journaled)
    }

    /// The script's reply to a data message, if one matches.
    private func answer(_ message: WebSocketMessage) {
            guard state == .open, let index = script.replyIndex(to: message) else { return }
            let reply = script.replies[index]
            traffic.replied(index, route: route)
            let adding = reply.send.count + (reply.close == nil ? 0 : 1)
            guard timeline.count + adding <= WebSocketConnection.maxPendingActions else {
                // The reason fits a close frame (123 bytes): the client sends faster than the replies fall due.
                return refuse(.policyViolation("more than \(WebSocketConnection.maxPendingActions) scripted replies waiting to be sent"))
            }
            for send in reply.send { schedule(after: send.after, from: now(), .send(send.payload)) }
            if let close = reply.close { schedule(after: close.after, from: now(), .close(close)) }
            runDue()
    }

    // MARK: The script's timeline

    /// The socket's time in seconds: the session's virtual clock, or the uptime clock.
    private func now() -> Double {
        if let virtualClock { return virtualClock.now().timeIntervalSince1970 }
        return Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    private func schedule(after delay: Duration, from start: Double? = nil, _ action: Action) {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        timeline.schedule(action, due: (start ?? opened) + seconds)
    }

    /// Does every action that is due, in order, then waits for the next one.
    private func runDue() {
        guard state != .finished else { return }
        let time = now()
        while state == .open, let action = timeline.takeDue(by: time) {
            switch action {
            case .send(let payload): sendMessage(payload)
            case .close(let close):
                enqueue(.close(close.code, reason: close.reason))
                state = .closing
                // The client answers with its close; one that does not is closed on anyway.
                queue.asyncAfter(deadline: .now() + WebSocketConnection.closeWaitSeconds) { [self] in finish() }
            }
        }
        arm()
    }

    /// Sets the one timer (or virtual-clock alarm) for the next action, unless it is set for it
    /// already: re-armed per message, a fresh timer each time would pile up until the next was due
    /// (an hour's wait held every reply's timer: 33 MB per flooding client, Benchmarks/websocket_sockets.py).
    private func arm() {
        guard state == .open, let next = timeline.nextDue else { return disarm() }
        guard armedDue != next else { return }
        armedDue = next
        if let virtualClock {
            if let alarm { virtualClock.cancelAlarm(alarm) }
            generation += 1
            let armed = generation
            let wake: @Sendable () -> Void = { [weak self] in
                guard let self else { return }
                queue.async { if self.generation == armed { self.rang() } }
            }
            alarm = virtualClock.alarm(at: Date(timeIntervalSince1970: next), wake)
            if alarm == nil { wake() }
        } else {
            if timer == nil {
                let t = DispatchSource.makeTimerSource(queue: queue)
                t.setEventHandler { [weak self] in self?.rang() }
                t.activate()
                timer = t
            }
            let nanoseconds = max(0, (next - now()) * 1e9)
            timer?.schedule(deadline: .now() + .nanoseconds(Int(min(nanoseconds, 9e15))))
        }
    }

    private func rang() {
        armedDue = nil
        runDue()
    }

    private func disarm() {
        armedDue = nil
        generation += 1
        if let alarm { virtualClock?.cancelAlarm(alarm) }
        alarm = nil
        timer?.cancel()
        timer = nil
    }

    // MARK: Writing

    /// A data message, counted as sent on the route.
    private func sendMessage(_ payload: WebSocketPayload) {
        // Journaled before it is written: a test that read it reads the journal with it in.
        if state != .finished { journal(payload, .sent) }
        enqueue(payload.frame)
        guard state != .finished else { return }
        traffic.sent({
            switch payload {
            case .text(let text): text
            case .binary(let bytes): "binary, \(bytes.count) bytes"
            }
        }(), route: route)
    }

    private func enqueue(_ frame: WebSocketFrame) {
        guard state != .finished else { return }
        let bytes = frame.serverBytes
        if output.count - outputStart + bytes.count > WebSocketConnection.maxPendingOutputBytes {
            // A client that does not read: held no further.
            return finish()
        }
        output += bytes
        flush()
    }

    private func flush() {
        guard state != .finished else { return }
        while outputStart < output.count {
            let n = output.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + outputStart, raw.count - outputStart, Sockets.noSignal)
            }
            if n > 0 {
                outputStart += n
                continue
            }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR, outputStart >= 64 * 1024 {
                // What went out is dropped, so a client reading slowly does not keep it all.
                output.removeFirst(outputStart)
                outputStart = 0
            }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                waitForWritable()
                return
            }
            return finish()
        }
        output.removeAll(keepingCapacity: output.count <= 4096)
        outputStart = 0
        if writeSourceRunning {
            writeSource?.suspend()
            writeSourceRunning = false
        }
        if finishWhenFlushed { finish() }
    }

    private func waitForWritable() {
        if let writeSource {
            if !writeSourceRunning { writeSource.resume() }
        } else {
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [unowned self] in flush() }
            source.setCancelHandler { [unowned self] in sourceCancelled() }
            writeSource = source
            source.activate()
        }
        writeSourceRunning = true
    }

    // MARK: Ending

    /// Stops everything; the socket goes back to libmicrohttpd once dispatch has let go of it.
    private func finish() {
        guard state != .finished else { return }
        state = .finished
        timeline.removeAll()
        arm()
        cancelsLeft = (readSource == nil ? 0 : 1) + (writeSource == nil ? 0 : 1)
        if let writeSource {
            if !writeSourceRunning { writeSource.resume() }
            writeSource.cancel()
        }
        readSource?.cancel()
        if cancelsLeft == 0 { release() }
    }

    private func sourceCancelled() {
        cancelsLeft -= 1
        if cancelsLeft == 0 { release() }
    }

    private func release() {
        if fd >= 0 { close(fd) }
        fd = -1
        readSource = nil
        writeSource = nil
        handle?.close()
        handle = nil
        traffic.closed(self, route: route)
        registry.remove(self)
        changed()
    }
}
