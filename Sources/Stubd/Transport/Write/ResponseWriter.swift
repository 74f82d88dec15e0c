import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// The one place a `Response` becomes libmicrohttpd calls: a response made (or the canned one
/// reused), its headers added, and queued on the connection; or the connection closed or handed
/// off. Then, as the last thing done for the request, its log line (`RequestLog`).
/// The header rules therefore live here and in libmicrohttpd: it writes Date, Content-Length (or
/// chunked framing) and Connection itself and drops the body of an answer to HEAD.
struct ResponseWriter {
    /// For a held answer's and a stream's suspensions (which `stop()` resumes). Unowned: the router
    /// that holds it outlives every request, and a retain per request is a write to a shared cache line.
    unowned(unsafe) let suspensions: Suspensions
    /// libmicrohttpd's form of the canned answers of the catalog in force (the router's, published with it).
    unowned(unsafe) let inForce: PreparedAnswersInForce
    /// The request's own (read with its catalog), when the caller has them: no second published read.
    /// Unowned: the request holds them until it is sent.
    unowned(unsafe) var answers: PreparedAnswers? = nil

    /// Writes `response`, then the request's line: its status, `note` (what became of it: a fault,
    /// a throttle, a tunnel) and the time since `started`. A throttled or streamed body goes on
    /// long after this: the line's time is until its head was queued.
    func write(_ response: Response, on connection: borrowing Connection, finishing line: RequestLogLine, note: String? = nil,
               started: UInt64, log: borrowing RequestLog) -> CallResult {
        let result = write(response, on: connection)
        // A held answer's line is written when it is finished.
        if case .held = response { return result }
        log.write(line, status: response.status, note: note, started: started)
        return result
    }

    /// Writes `response` with no log line: one whose line is written when it ends (a forwarded
    /// download, a held answer) or not at all (a `hang`'s close, a request without a context: the log is off).
    func write(_ response: Response, on connection: borrowing Connection) -> CallResult {
        switch response {
        case let .canned(canned, extra):
            // The plain route's answer: kept here, the rest out of line, so this inlines into the caller.
            if extra.isEmpty {
                return connection.queue(prepared(canned).response, status: canned.status.code)
            }
            return queue(canned, adding: extra, on: connection)
        case .generated(let generated):
            return queue(generated, on: connection)
        case let .stream(status, headers, length, body):
            return queue(status, headers, length, body, on: connection)
        case let .upgrade(headers, upgraded):
            return upgrade(headers, upgraded, on: connection)
        case .drop(let reset):
            if reset {
                // SO_LINGER with a zero timeout turns the close into an RST.
                let fd = connection.fd
                if fd >= 0 { Sockets.resetOnClose(fd) }
            }
            return .close
        case .handedOff:
            // NO makes libmicrohttpd close its side; the socket lives on in whoever took it.
            return .close
        case .held(let held):
            return hold(held, on: connection)
        }
    }

    /// Suspends the connection (registered so `stop()` resumes it), then starts the wait, whose end
    /// resumes it once; or, when the server is stopping, answers now.
    @inline(never)
    private func hold(_ held: HeldAnswer, on connection: borrowing Connection) -> CallResult {
        guard suspensions.suspend(held.context, finishing: held.work, connection.handle) else { return held.now(connection) }
        let context = held.context
        held.start { [suspensions] work in suspensions.resume(context, finishing: work) }
        return .carryOn
    }

    /// libmicrohttpd's form of `canned`: from the request's table (the plain route's path), else
    /// out of line from the table in force or made now (an answer no catalog holds: a runtime stub's,
    /// a range's, a spec's example; or one of a catalog replaced meanwhile).
    @inline(__always)
    private func prepared(_ canned: CannedResponse) -> PreparedResponse {
        if let answers, let prepared = answers.lookUp(canned) { return prepared }
        return preparedElsewhere(canned)
    }

    @inline(never)
    private func preparedElsewhere(_ canned: CannedResponse) -> PreparedResponse {
        inForce.value.lookUp(canned) ?? PreparedResponse(canned)
    }

    @inline(never)
    private func queue(_ canned: CannedResponse, adding extra: ExtraHeaders, on connection: borrowing Connection) -> CallResult {
        let prepared = prepared(canned)
        // The connection keeps the response for its next request (see ConnectionState).
        if let queued = connection.withState({ $0.queueVariant(of: prepared, adding: extra, status: canned.status.code, on: connection) }) {
            return queued
        }
        return queueOnce(prepared.variant(adding: extra.list), status: canned.status, on: connection)
    }

    @inline(never)
    private func queue(_ generated: GeneratedResponse, on connection: borrowing Connection) -> CallResult {
        generated.body.withUnsafeBytes { raw in
            let r = MHDResponse(copying: raw)
            r.add(generated.headers)
            return connection.queue(r, status: generated.status.code)
        }
    }

    @inline(never)
    private func queue(_ status: HTTPResponse.Status, _ headers: HTTPFields, _ length: UInt64?, _ body: any ResponseStream,
                       on connection: borrowing Connection) -> CallResult {
        let r = MHDResponse(length: length, streaming: body, pause: StreamPause(connection: connection.handle, suspensions: suspensions))
        r.add(headers)
        return queueOnce(r, status: status, on: connection)
    }

    /// A 101 whose socket `upgraded` takes once it is sent.
    @inline(never)
    private func upgrade(_ headers: HTTPFields, _ upgraded: any UpgradedConnection, on connection: borrowing Connection) -> CallResult {
        guard let r = MHDResponse(upgradingTo: upgraded) else { return .close }
        r.add(headers)
        return queueOnce(r, status: .switchingProtocols, on: connection)
    }

    /// Queues a response made for this request alone; libmicrohttpd holds it until it is sent, and
    /// ours is destroyed on return.
    private func queueOnce(_ r: consuming MHDResponse, status: HTTPResponse.Status, on connection: borrowing Connection) -> CallResult {
        connection.queue(r, status: status.code)
    }

    /// An answer for a socket libmicrohttpd does not hold (a connection over the cap, a head it
    /// would mishandle, a tunnel that did not open), as the bytes to send before closing: the
    /// status line, `Connection: close` and the length libmicrohttpd would otherwise write.
    static func closingBytes(_ response: GeneratedResponse) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\nConnection: close\r\nContent-Length: \(response.body.count)\r\n"
        for field in response.headers { head += "\(field.name.rawName): \(field.value)\r\n" }
        return Array((head + "\r\n").utf8) + Array(response.body)
    }
}
