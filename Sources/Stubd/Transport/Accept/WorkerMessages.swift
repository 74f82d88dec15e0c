#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMicroHTTPD
import Foundation
import StubdCore
import StubdEngine
import Synchronization
import HTTPTypes

/// What libmicrohttpd says about one worker's connections (`MHD_USE_ERROR_LOG`), where it answers
/// a request itself, and answers it wrong.
///
/// libmicrohttpd 0.9.75 refuses a `Content-Length` that is not a number (`abc`, `+5`, `5, 5`) or
/// past 2^64 before our handler sees the request, and then writes its status line and headers
/// twice (its state machine carries on as if nothing had been answered): the client reads the
/// second copy as the body, or as garbage after it (curl: "Excess found in a read"), and nothing
/// is logged. Its message names no connection, but it comes on the worker's own thread, while the
/// head it refuses is still waiting in the worker (see `HeadWatch`). So the worker's waiting
/// connections whose `Content-Length` is malformed are answered here, with a problem naming it,
/// and their socket shut for writing: libmicrohttpd's own answer then fails to go out, and it
/// closes the connection.
final class WorkerMessages: Sendable {
    let router: RequestRouter
    let heads: HeadWatch
    /// The worker's daemon, once started: a connection of another worker is not looked at.
    let daemon = Atomic<UInt>(0)

    init(router: RequestRouter, heads: HeadWatch) {
        self.router = router
        self.heads = heads
        sink = .allocate(capacity: 1)
        sink.initialize(to: shim_message_sink(callback: WorkerMessages.callback, cls: nil))
        sink.pointee.cls = Unmanaged.passUnretained(self).toOpaque()
    }

    /// What libmicrohttpd's logger option is given (`shim_message_forward`, and this), alive as long as this is.
    nonisolated(unsafe) let sink: UnsafeMutablePointer<shim_message_sink>

    deinit { sink.deallocate() }

    static let callback: shim_message_callback = { cls, format in
        // "Failed to parse `Content-Length' header. Closing connection." and "Too large value of
        // 'Content-Length' header. Closing connection.": every other message is left alone.
        guard let cls, let format else { return }
        if strstr(format, "Content-Length' header. Closing") != nil {
            Unmanaged<WorkerMessages>.fromOpaque(cls).takeUnretainedValue().answerMalformedLengths()
        } else if strstr(format, "received handshake message out of context") != nil {
            Unmanaged<WorkerMessages>.fromOpaque(cls).takeUnretainedValue().answerPlainHTTP()
        }
    }

    /// A TLS worker's handshake failed: if it was plain HTTP (what GnuTLS left unread of the
    /// request line ends in ` HTTP/1.x`), the client is told in plain HTTP, as nginx's 497 does,
    /// instead of seeing a bare close.
    private func answerPlainHTTP() {
        let daemon = daemon.load(ordering: .relaxed)
        let answered: Int = heads.withWaiting { waiting in
            var answered = 0
            for entry in waiting {
                guard let connection = Connection(address: entry.connection),
                      connection.daemonAddress == daemon, connection.isTLS else { continue }
                var peeked = [UInt8](repeating: 0, count: 2048)
                let n = recv(entry.fd, &peeked, peeked.count, Int32(MSG_PEEK | MSG_DONTWAIT))
                guard n > 0 else { continue }
                let text = String(decoding: peeked[0..<n], as: UTF8.self)
                guard let line = text.split(separator: "\r\n", maxSplits: 1).first ?? text.split(separator: "\n").first,
                      line.range(of: " HTTP/1.") != nil else { continue }
                WorkerMessages.write(.problem(400, title: "Plain HTTP to an HTTPS port",
                                              detail: "this port speaks HTTPS (TLS): send the request as https://, or to stubd's plain HTTP port"), to: entry.fd)
                HeadWatch.arrived(entry)
                answered += 1
            }
            return answered
        }
        for _ in 0..<answered {
            router.log.write(RequestLogLine(method: "-", path: "-", status: 400, session: "", latencyMicroseconds: 0, isAdmin: false),
                            status: 400, note: "plain HTTP sent to an HTTPS port", started: nil)
        }
    }

    /// Answers each of this worker's waiting connections whose `Content-Length` libmicrohttpd cannot read.
    private func answerMalformedLengths() {
        let daemon = daemon.load(ordering: .relaxed)
        // Under the watch's lock: no connection in it can close (and its socket be reused) meanwhile.
        let answered: [(status: Int, note: String)] = heads.withWaiting { waiting in
            var answered: [(Int, String)] = []
            for entry in waiting {
                guard let connection = Connection(address: entry.connection),
                      connection.daemonAddress == daemon, connection.header("Transfer-Encoding") == nil,
                      let raw = connection.header("Content-Length") else { continue }
                let value = String(cString: raw)
                let digits = !value.isEmpty && value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                guard !digits || UInt64(value) == nil else { continue }
                let problem: GeneratedResponse = digits
                    ? .problem(413, title: "Body too large",
                               detail: "Content-Length \(value.prefix(40)) is past 2^64 bytes; request bodies are limited to \(router.maxBodyBytes) bytes")
                    : .problem(400, title: "Bad Content-Length",
                               detail: "Content-Length '\(value.prefix(40))' is not a number of bytes: send one value, digits only (RFC 9110 §8.6), e.g. Content-Length: 5")
                WorkerMessages.write(problem, to: entry.fd)
                HeadWatch.arrived(entry)
                answered.append((problem.status.code, digits ? "Content-Length past 2^64" : "bad Content-Length '\(value.prefix(40))'"))
            }
            return answered
        }
        for (status, note) in answered {
            // libmicrohttpd gives no way to the request's method and path before its handler runs.
            router.log.write(RequestLogLine(method: "-", path: "-", status: status, session: "", latencyMicroseconds: 0, isAdmin: false),
                            status: status, note: note, started: nil)
        }
    }

    /// Writes `problem` as a whole answer that closes the connection, shuts the socket for writing,
    /// and reads what the client sent after the head, so the close is a FIN it reads the answer before.
    private static func write(_ problem: GeneratedResponse, to fd: Int32) {
        let bytes = ResponseWriter.closingBytes(problem)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Sockets.noSignal | Int32(MSG_DONTWAIT)) }
        shutdown(fd, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 16_384)
        while recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
    }
}
