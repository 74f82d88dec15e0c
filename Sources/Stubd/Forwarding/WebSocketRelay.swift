import Dispatch
import Foundation
import StubdCore
import StubdEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A WebSocket relayed between the app and the real API (`stubd record`, `serve --proxy`): the app's
/// frames go up masked, the API's come down unmasked, each read with our own codec
/// (`WebSocketFrameDecoder`, `WebSocketMessageAssembler`) so the conversation is known message by
/// message and written down (`WebSocketTranscript`) with its timing. Frames are passed on as they
/// come, fragments and pings included; the first close either side sends is passed on and ends the
/// relay once the other answers it (or after `closeWaitSeconds`), as does either end leaving or a
/// frame the protocol refuses (each side then gets a close with the refusal's code).
///
/// One thread per relayed socket, as a forward has one: recording is one developer's traffic, and a
/// thread that polls both sockets keeps the relay's order of events plain.
final class WebSocketRelay: UpgradedConnection, @unchecked Sendable {
    /// A frame or message larger than this stops the relay (1009 to its sender).
    static let maxMessageBytes = 16 << 20
    static let closeWaitSeconds = 2.0

    private let upstream: Int32
    private let upstreamExtra: [UInt8]
    private let subprotocol: String?
    /// The most of the conversation kept for the recording (`WebSocketTranscript.maxBytes`).
    private let maxRecordedBytes: Int
    private let done: @Sendable (WebSocketTranscript, String?) -> Void

    /// `done` gets the conversation and, when it did not end with a close handshake, why.
    init(upstream: Int32, extra: [UInt8], subprotocol: String?, maxRecordedBytes: Int,
         done: @escaping @Sendable (WebSocketTranscript, String?) -> Void) {
        self.upstream = upstream
        upstreamExtra = extra
        self.subprotocol = subprotocol
        self.maxRecordedBytes = maxRecordedBytes
        self.done = done
    }

    func start(socket: Int32, extra: [UInt8], handle: UpgradeHandle) {
        let client = dup(socket)
        NamedThread.start("stubd-ws-relay") { [self] in
            var ending: String?
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                _ = fcntl(upstream, F_SETFL, fcntl(upstream, F_GETFL) | O_NONBLOCK)
                Sockets.suppressBrokenPipe(client)
                var state = RelayState(client: client, upstream: upstream, subprotocol: subprotocol, maxRecordedBytes: maxRecordedBytes)
                ending = state.run(clientExtra: extra, upstreamExtra: upstreamExtra)
                done(state.transcript, ending)
                close(client)
            } else {
                done(WebSocketTranscript(subprotocol: subprotocol), "the app's socket could not be taken over")
            }
            close(upstream)
            handle.close()
        }
    }
}

/// The relay's two sides and what it has seen, on the relay's thread.
private struct RelayState {
    let client: Int32
    let upstream: Int32
    var transcript: WebSocketTranscript
    let opened = DispatchTime.now().uptimeNanoseconds
    var clientDecoder = WebSocketFrameDecoder(maxFrameBytes: WebSocketRelay.maxMessageBytes)
    var upstreamDecoder = WebSocketFrameDecoder(maxFrameBytes: WebSocketRelay.maxMessageBytes, fromClient: false)
    var clientAssembler = WebSocketMessageAssembler(maxMessageBytes: WebSocketRelay.maxMessageBytes)
    var upstreamAssembler = WebSocketMessageAssembler(maxMessageBytes: WebSocketRelay.maxMessageBytes)
    /// Which side closed first, once one has: the relay waits for the other's close.
    var closedBy: Bool?
    var closeDeadline: UInt64 = .max

    init(client: Int32, upstream: Int32, subprotocol: String?, maxRecordedBytes: Int) {
        self.client = client
        self.upstream = upstream
        transcript = WebSocketTranscript(subprotocol: subprotocol, maxBytes: maxRecordedBytes)
    }

    var now: Duration { .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - opened)) }

    /// Relays until the close handshake is done or a side leaves; nil for a clean end, else why not.
    mutating func run(clientExtra: [UInt8], upstreamExtra: [UInt8]) -> String? {
        if let why = take(upstreamExtra[...], fromClient: false) { return why }
        if let why = take(clientExtra[...], fromClient: true) { return why }
        if bothClosed { return nil }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if closedBy != nil, DispatchTime.now().uptimeNanoseconds >= closeDeadline { return nil }
            var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: upstream, events: Int16(POLLIN), revents: 0)]
            let wait: Int32 = closedBy == nil ? 1000 : 100
            let ready = poll(&fds, 2, wait)
            if ready < 0, errno != EINTR { return "poll failed: \(String(cString: strerror(errno)))" }
            for (index, fd) in [client, upstream].enumerated() where fds[index].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                if n <= 0 {
                    // One end left: after a close frame that is the end of the handshake, else a broken socket.
                    if closedBy != nil { return nil }
                    return index == 0 ? "the app left without a close frame" : "the API left without a close frame"
                }
                if let why = take(buffer[..<n], fromClient: index == 0) { return why }
                if bothClosed { return nil }
            }
        }
    }

    /// Both closes went by: the handshake is over.
    var bothClosed = false

    /// Decodes what one side sent, passes each frame on and notes its messages; why the relay must stop, if it must.
    mutating func take(_ bytes: ArraySlice<UInt8>, fromClient: Bool) -> String? {
        guard !bytes.isEmpty else { return nil }
        let to = fromClient ? upstream : client
        do throws(WebSocketProtocolError) {
            if fromClient { clientDecoder.append(bytes) } else { upstreamDecoder.append(bytes) }
            while let frame = try (fromClient ? clientDecoder.next() : upstreamDecoder.next()) {
                // Read before it is passed on: a frame the assembler refuses (text that is not UTF-8,
                // a message over the limit) never reaches the other side, which gets the close instead.
                let message = try fromClient ? clientAssembler.add(frame) : upstreamAssembler.add(frame)
                // Up masked (a client's frame), down unmasked (a server's), re-encoded either way.
                let wire = fromClient ? frame.bytes(mask: (.random(in: 0...255), .random(in: 0...255), .random(in: 0...255), .random(in: 0...255)))
                                      : frame.serverBytes
                if let why = BlindTunnel.write(to, wire, idleMilliseconds: 10_000) {
                    return "the \(fromClient ? "API" : "app") \(why)"
                }
                switch message {
                case .text(let text)?: transcript.append(.init(at: now, fromClient: fromClient, payload: .text(text)))
                case .binary(let data)?: transcript.append(.init(at: now, fromClient: fromClient, payload: .binary(data)))
                case let .close(code, reason)?:
                    if closedBy == nil {
                        closedBy = fromClient
                        transcript.close = WebSocketTranscript.Close(at: now, fromClient: fromClient, code: code, reason: reason)
                        closeDeadline = DispatchTime.now().uptimeNanoseconds + UInt64(WebSocketRelay.closeWaitSeconds * 1e9)
                    } else if closedBy != fromClient {
                        bothClosed = true
                        return nil
                    }
                default: break
                }
            }
        } catch {
            // Each side is told; the relay ends.
            _ = BlindTunnel.write(client, WebSocketFrame.close(error.code, reason: error.reason).serverBytes, idleMilliseconds: 1000)
            _ = BlindTunnel.write(upstream, WebSocketFrame.close(error.code, reason: error.reason).bytes(mask: (1, 2, 3, 4)), idleMilliseconds: 1000)
            return "the \(fromClient ? "app" : "API") sent a frame the protocol refuses: \(error.reason)"
        }
        return nil
    }
}
