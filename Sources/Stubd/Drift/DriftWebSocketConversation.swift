#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import StubdCore
import StubdEngine

/// `stubd drift`'s side of a WebSocket: the app's part of a recorded conversation played against the
/// real API on a socket `UpstreamWebSocket` opened. After the open, and after each of the app's
/// messages, it takes what the API sends until as many messages as the folder's script has there
/// came (then 100 ms more, for any beyond), or none came for a while, or the API closed. Blocking:
/// runs on a thread of its own. Pings are answered; frames go up masked, as a client's.
struct DriftWebSocketConversation {
    /// What the API sent: on the open, after each of the app's messages, and its close if it closed.
    var open: [WebSocketPayload] = []
    var replies: [[WebSocketPayload]] = []
    var close: (code: UInt16, reason: String)?

    /// How long to wait past a group's last expected message before taking it as complete (the
    /// script's own `after` is added), and for any beyond the expected count.
    static let patienceNanoseconds: UInt64 = 1_500_000_000
    static let graceNanoseconds: UInt64 = 100_000_000

    private let fd: Int32
    private var decoder = WebSocketFrameDecoder(maxFrameBytes: 16 << 20, fromClient: false)
    private var assembler = WebSocketMessageAssembler(maxMessageBytes: 16 << 20)
    private var pending: [UInt8]
    private var closed = false

    init(fd: Int32, extra: [UInt8]) {
        self.fd = fd
        pending = extra
    }

    /// Plays `script`'s side for the app, within `deadline` (`DispatchTime` nanoseconds).
    static func play(_ script: WebSocketScript, fd: Int32, extra: [UInt8], deadline: UInt64) -> DriftWebSocketConversation {
        var conversation = DriftWebSocketConversation(fd: fd, extra: extra)
        let longest = { (messages: [WebSocketScriptMessage]) in UInt64(max(0, (messages.map(\.after).max() ?? .zero) / .nanoseconds(1))) }
        conversation.open = conversation.take(expected: script.messages.count, waiting: longest(script.messages), deadline: deadline)
        let replies = script.replies.filter { if case .text = $0.match { true } else { false } }
        for reply in replies {
            guard !conversation.closed, case .text(let text) = reply.match else { conversation.replies.append([]); continue }
            conversation.send(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
            conversation.replies.append(conversation.take(expected: reply.send.count, waiting: longest(reply.send), deadline: deadline))
        }
        if !conversation.closed {
            // The app's close, answered by the API's (not its own close: not recorded as one).
            conversation.send(.close(1000))
            let code = conversation.close
            _ = conversation.take(expected: 0, waiting: 0, deadline: min(deadline, DispatchTime.now().uptimeNanoseconds + 1_000_000_000))
            conversation.close = code
        }
        return conversation
    }

    private mutating func send(_ frame: WebSocketFrame) {
        _ = BlindTunnel.write(fd, frame.bytes(mask: (.random(in: 0...255), .random(in: 0...255), .random(in: 0...255), .random(in: 0...255))),
                              idleMilliseconds: 5000)
    }

    /// The API's data messages until `expected` came (and the grace after), the wait ran out or it closed.
    private mutating func take(expected: Int, waiting: UInt64, deadline: UInt64) -> [WebSocketPayload] {
        var got: [WebSocketPayload] = []
        let start = DispatchTime.now().uptimeNanoseconds
        var until = min(deadline, start + waiting + Self.patienceNanoseconds)
        if expected == 0 { until = min(until, start + Self.graceNanoseconds + waiting) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !closed {
            // Frames already read first.
            decoder.append(pending)
            pending = []
            do throws(WebSocketProtocolError) {
                while let frame = try decoder.next() {
                    switch try assembler.add(frame) {
                    case .text(let text)?: got.append(.text(text))
                    case .binary(let bytes)?: got.append(.binary(bytes))
                    case .ping(let payload)?: send(WebSocketFrame(opcode: .pong, payload: payload))
                    case let .close(code, reason)?:
                        close = (code ?? 1005, reason)
                        send(.close(code ?? 1000))
                        closed = true
                    default: break
                    }
                    if got.count == expected, expected > 0 {
                        until = min(until, DispatchTime.now().uptimeNanoseconds + Self.graceNanoseconds)
                    }
                }
            } catch {
                closed = true
                break
            }
            let now = DispatchTime.now().uptimeNanoseconds
            guard !closed, now < until else { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(max(1, (until - now) / 1_000_000)))
            if ready == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EAGAIN || errno == EINTR { continue }
            if n <= 0 { closed = true; break }
            pending = Array(buffer[..<n])
        }
        return got
    }
}
