import Foundation
import HTTPTypes
import StubdCore
import StubdEngine
import Synchronization

extension RequestRouter {
    /// A WebSocket through `stubd record` or `serve --proxy`: the API's handshake is made on a
    /// thread of its own (the connection waits suspended, as for a forward), then the app gets the
    /// `101` and a `WebSocketRelay` passes frames both ways. When the conversation ends it is
    /// recorded (if asked), journaled and logged, with the note saying so.
    func relayWebSocket(_ request: RequestHead, _ session: SessionState, _ forwarding: ForwardingResponder,
                        _ context: RequestContext, _ connection: borrowing Connection, line: RequestLogLine) -> CallResult {
        let options = forwarding.options
        let target = options.target.absoluteString
        let settings = forwarding.forwarder.settings
        // Ended early (`stop()`, a departed client), a relay answers as a stopping server does.
        return write(.held(HeldAnswer(context: context, work: .answer(.generated(Self.stopping)), start: { [self] resume in
            guard let url = forwarding.forwarder.url(path: request.path, query: request.query) else {
                return resume(.answer(.generated(.problem(502, title: "Target unreachable", detail: "cannot build a URL for \(request.path)"))))
            }
            NamedThread.start("stubd-forward") { [self] in
                let policy = RecordingPolicy(recorder: options.recorder, maxBodyBytes: options.maxBodyBytes, target: target, contracts: admin.contracts)
                let answer: GeneratedResponse
                let note: String
                switch UpstreamWebSocket.open(url: url, headers: request.headers, loop: settings.loop ?? ForwardingLoop(), timeoutSeconds: options.timeoutSeconds) {
                case let .upgraded(fd, upstreamHeaders, extra):
                    let headers = WebSocketRelayHandshake.headers(clientKey: request.headers[HTTPField.Name("Sec-WebSocket-Key")!], upstream: upstreamHeaders)
                    // Kept up to --max-body when recording, as an HTTP answer is; a relay that only passes
                    // frames on keeps none (it counted them all, and a long-lived socket ran out of memory).
                    let relay = WebSocketRelay(upstream: fd, extra: extra, subprotocol: headers[HTTPField.Name("Sec-WebSocket-Protocol")!],
                                               maxRecordedBytes: policy.recorder == nil ? 0 : options.maxBodyBytes) { [self] transcript, ending in
                        var exchange = RecordedExchange(method: request.method, path: request.path, query: request.query, requestHeaders: request.headers,
                                                        requestBody: Data(), status: .switchingProtocols, responseHeaders: HTTPFields(), responseBody: Data())
                        exchange.webSocket = transcript
                        var (note, recorded) = policy.answered(exchange)
                        note = "WebSocket " + note + ", \(transcript.relayedMessages) message(s)" + (ending.map { "; \($0)" } ?? "")
                        if policy.recorder != nil, transcript.unrecorded > 0 { note += "; " + RecordedWebSocket.stoppedNote(transcript) }
                        adopt(recorded)
                        forwardEnded(request, status: 101, note: note, session, options, context, line: line)
                    }
                    return resume(.response(.upgrade(headers: headers, connection: relay)))
                case let .answered(status, headers, body):
                    answer = RequestRouter.relayed(status: status, headers: headers, body: body, origin: options.target.origin)
                    note = "proxied to \(target); not recorded: the API answered the WebSocket handshake with \(status), not 101"
                case .unreachable(let reason):
                    answer = .problem(502, title: "Target unreachable",
                                      detail: "\(target) did not open a WebSocket for \(request.path): \(reason); nothing was recorded")
                    note = policy.unreachable(reason)
                case .badHandshake(let why):
                    answer = .problem(502, title: "Bad WebSocket handshake from the API",
                                      detail: "\(target) answered the WebSocket handshake for \(request.path) with a 101 that is not valid: \(why); the socket was not opened and nothing was recorded")
                    note = "not relayed: the API's WebSocket handshake is not valid (\(why))"
                case .loop(let why):
                    answer = loop.refusal("forwarding \(request.method) \(request.path) to \(target): \(why)")
                    note = "not forwarded: a loop (\(why))"
                }
                resume(forwardAnswered(request, answer: answer, note: note, session, options, line: line))
            }
        }, now: { [self] connection in
            send(.generated(Self.stopping), context, connection, line: line)
        })), connection)
    }
}
