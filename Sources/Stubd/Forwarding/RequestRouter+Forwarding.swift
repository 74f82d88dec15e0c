import Foundation
import StubdCore
import StubdEngine
import StubdProtocol
import HTTPTypes
import Synchronization

extension RequestRouter {
    /// Besides the hop-by-hop headers: what stubd writes anew for its own answer (the body is relayed
    /// decoded, with its own length, date and server).
    static let notRelayed: Set<String> = ["content-length", "content-encoding", "date", "server"]

    /// The answer for the client: decoded body, its own length, a `Location` on the target pointing here.
    static func relayed(status: Int, headers: HTTPFields, body: Data, origin: String) -> GeneratedResponse {
        var kept = HTTPFields()
        let leftOut = HopByHopHeaders.leftOut(of: headers, also: notRelayed)
        for h in headers where !leftOut.contains(h.name.canonicalName) {
            let name = h.name
            if name == .location, !origin.isEmpty, h.value.hasPrefix(origin) {
                let rest = String(h.value.dropFirst(origin.count))
                kept.append(HTTPField(name: name, value: rest.isEmpty ? "/" : rest))
            } else {
                kept.append(HTTPField(name: name, value: h.value))
            }
        }
        return GeneratedResponse(status: HTTPResponse.Status(code: status), headers: kept, body: body)
    }

    // MARK: Forwarding

    /// Passes the request on to the real API with the connection suspended (no worker waits), then
    /// answers with what came back, or a 502/504 problem naming the target; records it if asked.
    func forward(_ request: RequestHead, _ session: SessionState, _ forwarding: ForwardingResponder,
                         _ context: RequestContext, _ connection: borrowing Connection, line: RequestLogLine) -> CallResult {
        var forwardedLine = line
        forwardedLine.isForwarded = true
        let line = forwardedLine
        context.logLine = line
        if loop.isOwn(request.headers) {
            return send(.generated(loop.refusal("\(request.method) \(request.path) has passed through this stubd already (its Via header carries \(loop.token))")),
                        context, connection, line: line)
        }
        if WebSocketRelayHandshake.asksForWebSocket(request.headers) {
            return relayWebSocket(request, session, forwarding, context, connection, line: line)
        }
        let options = forwarding.options
        let target = options.target.absoluteString
        // Ended early (`stop()`, a departed client), a forward answers as a stopping server does.
        return write(.held(HeldAnswer(context: context, work: .answer(.generated(Self.stopping)), start: { [self] resume in
            forwarding.forwarder.forward(method: request.method, path: request.path, query: request.query, headers: request.headers,
                                         body: request.body, onStream: { status, headers, body in
                // Too large to hold: the client gets it from now on, as it arrives; the log line comes at the end.
                let relayed = RequestRouter.relayed(status: status, headers: headers, body: Data(), origin: options.target.origin)
                resume(.response(.stream(status: HTTPResponse.Status(code: status), headers: relayed.headers, length: nil, body: body)))
            }) { [self] result in
                let policy = RecordingPolicy(recorder: options.recorder, maxBodyBytes: options.maxBodyBytes, target: target,
                                             contracts: admin.contracts)
                if case let .streamed(status, bytes, cut) = result {
                    // The streamed answer's end is the request's: its line is written now, not by the writer.
                    return forwardEnded(request, status: status, note: policy.streamed(bytes: bytes, cut: cut), session, options, context, line: line)
                }
                if case let .relayed(status, headers, body, arrivals) = result {
                    // The client had the stream as it came; it is recorded now that it is whole.
                    var exchange = RecordedExchange(method: request.method, path: request.path, query: request.query,
                                                    requestHeaders: request.headers, requestBody: request.body, status: HTTPResponse.Status(code: status),
                                                    responseHeaders: headers, responseBody: body)
                    exchange.bodyArrivals = arrivals
                    let (note, recorded) = policy.answered(exchange)
                    adopt(recorded)
                    return forwardEnded(request, status: status, note: note, session, options, context, line: line)
                }
                let answer: GeneratedResponse
                let note: String
                switch result {
                case .streamed, .relayed: return
                case let .answered(status, headers, body, arrivals):
                    answer = RequestRouter.relayed(status: status, headers: headers, body: body, origin: options.target.origin)
                    var exchange = RecordedExchange(method: request.method, path: request.path, query: request.query,
                                                    requestHeaders: request.headers, requestBody: request.body, status: HTTPResponse.Status(code: status),
                                                    responseHeaders: headers, responseBody: body)
                    exchange.bodyArrivals = arrivals
                    let recorded: Route?
                    (note, recorded) = policy.answered(exchange)
                    adopt(recorded)
                case .unreachable(let reason):
                    answer = .problem(502, title: "Target unreachable",
                                      detail: "\(target) did not answer \(request.method) \(request.path): \(reason); nothing was recorded")
                    note = policy.unreachable(reason)
                case let .refused(title, detail):
                    answer = .problem(502, title: title, detail: "\(target) answered \(request.method) \(request.path), but \(detail); nothing was recorded")
                    note = policy.refused(detail)
                case .loop(let why):
                    answer = loop.refusal("forwarding \(request.method) \(request.path) to \(target): \(why)")
                    note = "not forwarded: a loop (\(why))"
                case .timedOut:
                    answer = .problem(504, title: "Target timed out",
                                      detail: "\(target) did not answer \(request.method) \(request.path) within \(Int(options.timeoutSeconds)) s (--timeout); nothing was recorded")
                    note = policy.timedOut(afterSeconds: Int(options.timeoutSeconds))
                }
                resume(forwardAnswered(request, answer: answer, note: note, session, options, line: line))
            }
        }, now: { [self] connection in
            send(.generated(Self.stopping), context, connection, line: line)
        })), connection)
    }

    /// How a forward ends when the writer carries its answer: journaled and noted, the request's log
    /// line (written by the writer) carrying the note; returns the answer, for the resume to hand in.
    func forwardAnswered(_ request: RequestHead, answer: GeneratedResponse, note: String, _ session: SessionState,
                         _ options: ForwardingOptions, line: RequestLogLine) -> PendingWork {
        engine.journalForwarded(request, status: answer.status, note: note, in: session)
        noteForward(request, status: answer.status.code, note: note, options)
        var logged = line
        logged.note = note
        return .answer(.generated(answer), line: logged)
    }

    /// How a forward ends when its answer went to the client as it came (a stream, a WebSocket
    /// conversation): journaled and noted, and its log line written now, as the writer writes none.
    func forwardEnded(_ request: RequestHead, status: Int, note: String, _ session: SessionState,
                      _ options: ForwardingOptions, _ context: RequestContext, line: RequestLogLine) {
        engine.journalForwarded(request, status: HTTPResponse.Status(code: status), note: note, in: session)
        noteForward(request, status: status, note: note, options)
        log.write(line, status: status, note: note, started: context.started)
    }

    /// A route a forward just recorded (nil when it recorded none): counted, and in force at once
    /// when this stubd also serves a folder.
    func adopt(_ recorded: Route?) {
        guard let recorded else { return }
        admin.recordedCount.add(1, ordering: .relaxed)
        if chain.stubs != nil { serveFromNowOn(recorded) }
    }

    /// Puts a route just recorded in force, so the same request is answered from it rather than
    /// forwarded (and recorded) again before the watcher reloads the folder. One at a time: two
    /// recordings amending the same catalog at once would each drop the other's route.
    func serveFromNowOn(_ route: Route) {
        RequestRouter.amending.withLock { _ in
            install(engine.catalog.amended(with: route))
        }
    }

    private static let amending = Locked(())

    /// What came of a forward, said once: the request line carries the note when the request log
    /// is on (`--log-level info`, the default); otherwise a notice does, as recording is worth
    /// seeing at any level.
    func noteForward(_ request: RequestHead, status: Int, note: String, _ options: ForwardingOptions) {
        if !log.isOn { options.notice?("\(request.method) \(request.path) \(status): \(note)") }
    }

}
