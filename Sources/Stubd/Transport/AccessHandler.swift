import CMicroHTTPD
import Foundation
import StubdCore
import Synchronization

/// The C entry points. They live in a library file: in `main.swift` Swift 6 would insert a
/// main-actor check that traps on libmicrohttpd's worker threads.
let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, conCls in
    Unmanaged<RequestRouter>.fromOpaque(cls!).takeUnretainedValue()
        .handle(connection!, url!, method!, uploadData, uploadSize!, conCls!)
}

let requestCompleted: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
    guard let conCls, let raw = conCls.pointee else { return }
    if raw != plainRequest { Unmanaged<RequestContext>.fromOpaque(raw).release() }
    conCls.pointee = nil
    Unmanaged<RequestRouter>.fromOpaque(cls!).takeUnretainedValue().active.subtract(1, ordering: .relaxed)
}

/// Sees the URI before libmicrohttpd decodes it: a `%00` would cut the decoded C string short
/// (`/a.json%00.png` would read as `/a.json`), so such a request is marked to get a 400.
let rawURIInspector: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { _, uri, _ in
    guard let uri else { return nil }
    var p = uri
    while p.pointee != 0 {
        if p.pointee == 0x25, p[1] == 0x30, p[2] == 0x30 { return nulInPath } // "%00"
        p += 1
    }
    return nil
}

/// Marks a request whose raw URI held `%00`.
nonisolated(unsafe) let nulInPath = UnsafeMutableRawPointer(bitPattern: 0x2)!

/// Marks a request that needs no per-request state (no body, no delay, no log): most of them,
/// so most requests allocate nothing of ours.
nonisolated(unsafe) let plainRequest = UnsafeMutableRawPointer(bitPattern: 0x1)!

private let headerCollector: MHD_KeyValueIterator = { cls, _, key, value in
    let list = cls!.assumingMemoryBound(to: [(name: String, value: String)].self)
    if let key { list.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? "")) }
    return .YES
}

private let queryCollector: MHD_KeyValueIterator = { cls, _, key, value in
    let list = cls!.assumingMemoryBound(to: [(name: String, value: String?)].self)
    if let key { list.pointee.append((String(cString: key), value.map { String(cString: $0) })) }
    return .YES
}

/// Turns libmicrohttpd's calls into `RequestHead`s for the engine and its outcomes into responses.
/// One object, fully built before the daemon starts, handed to MHD as the handler's context.
final class RequestRouter: @unchecked Sendable {
    let engine: StubEngine
    let responses: ResponseStore
    let maxBodyBytes: Int
    let log: (@Sendable (RequestLogLine) -> Void)?
    let adminAccess: AdminAccess
    /// `stubd record` / `serve --proxy`: where requests go on to, and what is written of them.
    let forwarding: (options: ForwardingOptions, forwarder: Forwarder)?
    let active = Atomic<Int>(0)
    private let suspended = Locked<(stopping: Bool, items: [ObjectIdentifier: RequestContext])>((false, [:]))

    /// Looks for clients that left while their connection was suspended (see `releaseDeparted`).
    private let departures: any DispatchSourceTimer

    init(engine: StubEngine, responses: ResponseStore, maxBodyBytes: Int, adminAccess: AdminAccess,
         forwarding: ForwardingOptions? = nil, log: (@Sendable (RequestLogLine) -> Void)?) {
        self.forwarding = forwarding.map { options in
            var settings = Forwarder.Settings(target: options.target)
            settings.timeoutSeconds = options.timeoutSeconds
            settings.maxBodyBytes = options.maxBodyBytes
            settings.maxDecodedBytes = options.maxDecodedBytes
            settings.connectionMemoryBytes = options.connectionMemoryBytes
            settings.caFile = options.caFile
            settings.insecure = options.insecure
            return (options, Forwarder(settings))
        }
        self.engine = engine
        self.adminAccess = adminAccess
        self.responses = responses
        self.maxBodyBytes = maxBodyBytes
        self.log = log
        departures = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        departures.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        departures.setEventHandler { [weak self] in self?.releaseDeparted() }
        departures.resume()
    }

    /// A suspended connection (a `hang`, a long-poll, a long delay) does not notice its client
    /// leave, and would hold its place under the connection cap until its timer ran out. Once a
    /// second each is peeked at; one whose client closed or reset is resumed, and so finished.
    private func releaseDeparted() {
        let departed: [RequestContext] = suspended.withLock { state in
            state.items.values.filter { $0.socket >= 0 && peerHasLeft($0.socket) }
        }
        // Resumed as they are: a hang closes, a delayed answer or a long-poll's goes nowhere and closes.
        for context in departed { resume(context) }
    }

    func handle(_ connection: OpaquePointer, _ url: UnsafePointer<CChar>, _ method: UnsafePointer<CChar>,
                _ uploadData: UnsafePointer<CChar>?, _ uploadSize: UnsafeMutablePointer<Int>, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        if conCls.pointee == nulInPath {
            conCls.pointee = plainRequest
            active.add(1, ordering: .relaxed)
            let r = makeResponse(.problem(400, title: "Bad path", detail: "a request path may not contain %00"))
            defer { MHD_destroy_response(r) }
            return MHD_queue_response(connection, 400, r)
        }
        guard let raw = conCls.pointee else {
            // First call: headers only. Queueing now would make 0.9.75 close the connection after
            // the answer (it treats it as an early reply), so only set up and come back.
            active.add(1, ordering: .relaxed)
            let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length")
            if let problem = RequestFraming.problem(in: connection) {
                // Answered now, which makes libmicrohttpd close after the answer: nothing after this
                // head can be trusted to be the next request.
                let context = RequestContext()
                conCls.pointee = Unmanaged.passRetained(context).toOpaque()
                let line = RequestLogLine(method: String(cString: method), path: String(cString: url), status: problem.status,
                                          session: "", latencyMicroseconds: 0, isAdmin: false)
                return send(.generated(.problem(problem.status, title: problem.title, detail: problem.detail)), context, connection, line: line)
            } else if let declared, declaredLengthExceeds(declared, maxBodyBytes > Int.max / 16 ? Int.max : maxBodyBytes * 16) {
                // Far past the limit (up to 2^64): answered before reading a byte of it. Queueing now
                // makes libmicrohttpd close after the answer; a client still sending may see a reset
                // rather than the 413, so a body only somewhat too large is read and dropped instead.
                let context = RequestContext()
                conCls.pointee = Unmanaged.passRetained(context).toOpaque()
                let line = RequestLogLine(method: String(cString: method), path: String(cString: url), status: 413,
                                          session: "", latencyMicroseconds: 0, isAdmin: false)
                return send(.generated(.problem(413, title: "Body too large",
                    detail: "request bodies are limited to \(maxBodyBytes) bytes")), context, connection, line: line)
            } else if let declared, declaredLengthExceeds(declared, maxBodyBytes) {
                let context = RequestContext()
                context.bodyTooLarge = true
                conCls.pointee = Unmanaged.passRetained(context).toOpaque()
            } else {
                conCls.pointee = log == nil ? plainRequest : Unmanaged.passRetained(RequestContext()).toOpaque()
            }
            return .YES
        }
        let context: RequestContext
        if raw == plainRequest {
            guard uploadSize.pointee > 0 else { return answer(nil, conCls, connection, url, method) }
            context = RequestContext()
            conCls.pointee = Unmanaged.passRetained(context).toOpaque()
        } else {
            context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        }
        if uploadSize.pointee > 0 {
            if !context.bodyTooLarge {
                if context.body.count + uploadSize.pointee > maxBodyBytes {
                    context.bodyTooLarge = true
                    context.body = Data()
                } else if let uploadData {
                    context.body.append(UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: uploadSize.pointee)
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        if let pending = context.pending {
            context.pending = nil
            return finish(pending, context, connection)
        }
        return answer(context, conCls, connection, url, method)
    }

    /// The request's context, created now if the request had none (a delay or long-poll needs one).
    private func context(_ existing: RequestContext?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> RequestContext {
        if let existing { return existing }
        let context = RequestContext()
        conCls.pointee = Unmanaged.passRetained(context).toOpaque()
        return context
    }

    // MARK: The first answer

    private func answer(_ existing: RequestContext?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
                        _ connection: OpaquePointer,
                        _ url: UnsafePointer<CChar>, _ methodPointer: UnsafePointer<CChar>) -> MHD_Result {
        let method = String(cString: methodPointer)
        let rawPath = String(cString: url)
        if existing?.bodyTooLarge == true {
            return send(.generated(.problem(413, title: "Body too large",
                detail: "request bodies are limited to \(maxBodyBytes) bytes")), existing, connection,
                line: RequestLogLine(method: method, path: rawPath, status: 413, session: "", latencyMicroseconds: 0, isAdmin: false))
        }
        var headers: [(name: String, value: String)] = []
        _ = withUnsafeMutablePointer(to: &headers) { MHD_get_connection_values(connection, .HEADER_KIND, headerCollector, $0) }
        var query: [(name: String, value: String?)] = []
        _ = withUnsafeMutablePointer(to: &query) { MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, queryCollector, $0) }

        // `?session=` names the session of an admin call only; `rejectPath` checks the id whatever carried it.
        let target = RequestTarget.resolve(path: rawPath,
                                           sessionHeader: RequestHead.header("x-stubd-session", in: headers),
                                           sessionQuery: query.first { $0.name == "session" }?.value ?? nil)
        var line = RequestLogLine(method: method, path: rawPath, status: 0, session: target.session,
                                  latencyMicroseconds: 0, isAdmin: target.adminCall != nil)
        if let problem = RequestRouter.rejectPath(rawPath, session: target.session) {
            return send(.generated(problem), existing, connection, line: line)
        }
        let body = existing?.body ?? Data()
        let request = RequestHead(method: method, path: target.path, query: query, headers: headers, body: body,
                                  clientAddress: engine.catalog.usesClientAddress ? describeAddress(shim_client_address(connection)) : "")

        if let call = target.adminCall {
            if let refusal = adminAccess.refusal(method: method, call: call, headers: headers) {
                return send(.generated(refusal), existing, connection, line: line)
            }
            let adminSession = engine.session(target.session)
            line.session = adminSession.id
            switch engine.admin(method: method, call: call, query: query, body: body, session: adminSession) {
            case .response(let generated):
                return send(.generated(generated), existing, connection, line: line)
            case let .waitForHits(session, hitQuery, count, timeout):
                let context = context(existing, conCls)
                context.logLine = line
                return waitForHits(context, connection, session: session, query: hitQuery, count: count, timeout: timeout)
            }
        }

        let session = engine.session(target.session)
        let outcome: Outcome
        if let forwarding {
            // Matched once: what no stub answers (everything, with --mode all) goes on to the real API.
            guard forwarding.options.scope != .everything, let stubbed = engine.respondIfStubbed(to: request, in: session) else {
                return forward(request, session, forwarding, context(existing, conCls), connection, line: line)
            }
            outcome = stubbed
        } else {
            outcome = engine.respond(to: request, in: session)
        }
        // Only for a log that will print them: the quota note's string cost ~2% of a quota'd request,
        // and the route's key is shared by the workers (retaining it is a write to a shared cache line).
        if log != nil {
            line.route = outcome.route?.key
            line.quota = outcome.quotaNote
        }
        if let job = outcome.deferred {
            return renderOffWorker(job, context(existing, conCls), connection, line: line)
        }
        if case .canned(let canned, _) = outcome.answer, !canned.isStatic {
            return deliverSpecial(canned, outcome, context(existing, conCls), connection, line: line)
        }
        return send(outcome.answer, existing, connection, line: line)
    }

    /// Paths that cannot name a stub: dot segments (`..` however encoded; MHD has decoded it by now),
    /// NUL bytes, and malformed session prefixes.
    static func rejectPath(_ path: String, session: String) -> GeneratedResponse? {
        if !path.hasPrefix("/") {
            // `GET http://host/path`: a client talking to stubd as to a forward proxy (HTTP_PROXY, curl -x).
            if path.lowercased().hasPrefix("http://") || path.lowercased().hasPrefix("https://") {
                return .problem(400, title: "Not a proxy", detail: "\(path.prefix(200)) is a request for a proxy (a whole URL), and stubd is not a proxy: point the client's base URL at stubd so it asks for the path alone; for a client with no base-URL setting, see the README's \"Clients with no base-URL setting\"")
            }
            return .problem(400, title: "Bad path", detail: "a request path starts with '/'")
        }
        if hasDotSegment(path) {
            return .problem(400, title: "Bad path", detail: "'.' and '..' segments are not allowed in a request path")
        }
        if !RequestTarget.isValidSession(session) {
            return .problem(400, title: "Bad session", detail: "a session id is 1–64 letters, digits, '-', '_' or '.'")
        }
        return nil
    }

    // MARK: Sending

    private func send(_ answer: Outcome.Answer, _ context: RequestContext?, _ connection: OpaquePointer,
                      line: RequestLogLine) -> MHD_Result {
        let result: MHD_Result
        var status = 0
        switch answer {
        case .canned(let canned, let extra):
            let prepared = responses.prepared(canned)
            status = canned.status
            if extra.isEmpty {
                result = MHD_queue_response(connection, UInt32(canned.status), prepared.response)
            } else if let state = shim_socket_context(connection) {
                // The connection keeps the response for its next request (see ConnectionState).
                let r = Unmanaged<ConnectionState>.fromOpaque(state).takeUnretainedValue().variant(of: prepared, adding: extra)
                result = MHD_queue_response(connection, UInt32(canned.status), r)
            } else {
                let r = prepared.variant(adding: extra.list)
                result = MHD_queue_response(connection, UInt32(canned.status), r)
                MHD_destroy_response(r)
            }
        case .generated(let generated):
            status = generated.status
            let r = makeResponse(generated)
            result = MHD_queue_response(connection, UInt32(generated.status), r)
            MHD_destroy_response(r)
        }
        if let log, let context {
            var line = line
            line.status = status
            line.latencyMicroseconds = Int((DispatchTime.now().uptimeNanoseconds - context.started) / 1000)
            log(line)
        }
        return result
    }

    // MARK: Forwarding

    /// Passes the request on to the real API with the connection suspended (no worker waits), then
    /// answers with what came back, or a 502/504 problem naming the target; records it if asked.
    private func forward(_ request: RequestHead, _ session: SessionState, _ forwarding: (options: ForwardingOptions, forwarder: Forwarder),
                         _ context: RequestContext, _ connection: OpaquePointer, line: RequestLogLine) -> MHD_Result {
        context.logLine = line
        guard suspend(context, connection) else {
            return send(.generated(.problem(503, title: "Stopping", detail: "stubd is stopping")), context, connection, line: line)
        }
        let options = forwarding.options
        let target = options.target.absoluteString
        forwarding.forwarder.forward(method: request.method, path: request.path, query: request.query, headers: request.headers,
                                     body: request.body, onStream: { [self] status, headers, body in
            // Too large to hold: the client gets it from now on, as it arrives; the log line comes at the end.
            let relayed = RequestRouter.relayed(status: status, headers: headers, body: Data(), origin: options.target.origin)
            context.pending = .stream(status: status, headers: relayed.headers, body: body)
            resume(context)
        }) { [self] result in
            if case let .streamed(status, bytes, cut) = result {
                let note = "proxied to \(target); streamed \(bytes) bytes" + (cut.map { ", \($0)" } ?? "")
                    + ", not recorded: over --max-body (\(options.maxBodyBytes))"
                engine.journalForwarded(request, status: status, note: note, in: session)
                options.notice?("\(request.method) \(request.path) \(status): \(note)")
                if let log {
                    var logged = line
                    logged.status = status
                    logged.note = note
                    logged.latencyMicroseconds = Int((DispatchTime.now().uptimeNanoseconds - context.started) / 1000)
                    log(logged)
                }
                return
            }
            let answer: GeneratedResponse
            var note: String
            switch result {
            case .streamed: return
            case let .answered(status, headers, body, tooLarge):
                answer = RequestRouter.relayed(status: status, headers: headers, body: body, origin: options.target.origin)
                note = "proxied to \(target)"
                if let recorder = options.recorder {
                    if tooLarge {
                        note += "; not recorded: its body (\(body.count) bytes) is over --max-body (\(options.maxBodyBytes))"
                    } else {
                        let exchange = RecordedExchange(method: request.method, path: request.path, query: request.query,
                                                        requestHeaders: request.headers, requestBody: request.body, status: status,
                                                        responseHeaders: headers, responseBody: body)
                        switch recorder.record(exchange) {
                        case let .written(files, route): note += "; recorded as \(route) in \(files.joined(separator: ", "))"
                        case .skipped(let why): note += "; not recorded: \(why)"
                        case .failed(let why): note += "; RECORDING FAILED: \(why)"
                        }
                    }
                }
            case .unreachable(let reason):
                answer = .problem(502, title: "Target unreachable",
                                  detail: "\(target) did not answer \(request.method) \(request.path): \(reason); nothing was recorded")
                note = "target unreachable: \(reason)"
            case let .refused(title, detail):
                answer = .problem(502, title: title, detail: "\(target) answered \(request.method) \(request.path), but \(detail); nothing was recorded")
                note = "refused: \(detail)"
            case .timedOut:
                answer = .problem(504, title: "Target timed out",
                                  detail: "\(target) did not answer \(request.method) \(request.path) within \(Int(options.timeoutSeconds)) s (--timeout); nothing was recorded")
                note = "target timed out after \(Int(options.timeoutSeconds)) s"
            }
            engine.journalForwarded(request, status: answer.status, note: note, in: session)
            options.notice?("\(request.method) \(request.path) \(answer.status): \(note)")
            var logged = line
            logged.note = note
            context.logLine = logged
            context.pending = .answer(.generated(answer))
            resume(context)
        }
        return .YES
    }

    // MARK: Templates that loop

    /// Renders on a Dispatch thread with the connection suspended, so the requests behind this one
    /// on the worker are answered meanwhile (a 71 MB render held them 1.6 s); then goes on as
    /// `deliverSpecial` does with the rendered answer's hang or delay, and `deliverNow` with the rest.
    private func renderOffWorker(_ job: DeferredRender, _ context: RequestContext, _ connection: OpaquePointer,
                                 line: RequestLogLine) -> MHD_Result {
        context.logLine = line
        guard suspend(context, connection) else { return deliverNow(engine.render(job).answer, context, connection) }
        DispatchQueue.global().async { [self] in
            let answer = engine.render(job).answer
            context.pending = .answer(answer)
            if case .canned(let canned, _) = answer {
                if canned.fault == .hang {
                    context.pending = .hang
                    schedule(after: 300_000_000_000) { [self] in resume(context) }
                    return
                }
                if let delay = canned.delay {
                    schedule(after: delay.sample()) { [self] in resume(context) }
                    return
                }
            }
            resume(context)
        }
        return .YES
    }

    // MARK: Delays, faults and long-polls

    private func deliverSpecial(_ canned: CannedResponse, _ outcome: Outcome, _ context: RequestContext,
                                _ connection: OpaquePointer, line: RequestLogLine) -> MHD_Result {
        context.logLine = line
        if canned.fault == .hang {
            context.pending = .hang
            if !suspend(context, connection) { return .NO }
            // A suspended connection never times out by itself; let a forgotten hang go after five minutes.
            schedule(after: 300_000_000_000) { [self] in resume(context) }
            return .YES
        }
        if let delay = canned.delay {
            context.pending = .answer(outcome.answer)
            guard suspend(context, connection) else { return send(outcome.answer, context, connection, line: line) }
            schedule(after: delay.sample()) { [self] in resume(context) }
            return .YES
        }
        return deliverNow(outcome.answer, context, connection)
    }

    /// Sends an answer whose delay is over (or had none), applying its fault.
    private func deliverNow(_ answer: Outcome.Answer, _ context: RequestContext, _ connection: OpaquePointer) -> MHD_Result {
        let line = context.logLine ?? RequestLogLine(method: "", path: "", status: 0, session: "", latencyMicroseconds: 0, isAdmin: false)
        guard case .canned(let canned, let extra) = answer, let fault = canned.fault else {
            if case .canned(let canned, let extra) = answer, let rate = canned.bytesPerSecond {
                return dribble(canned, extra, rate: rate, context, connection, line: line)
            }
            return send(answer, context, connection, line: line)
        }
        logFault(fault, canned, context, line)
        switch fault {
        case .connectionReset:
            // SO_LINGER with a zero timeout turns the close into an RST.
            let fd = shim_connection_fd(connection)
            if fd >= 0 { Sockets.resetOnClose(fd) }
            return .NO
        case .emptyResponse, .hang:
            return .NO
        case .truncatedBody:
            let r = TruncatedBody.response(for: canned, extraHeaders: extra.list)
            let result = MHD_queue_response(connection, UInt32(canned.status), r)
            MHD_destroy_response(r)
            return result
        case .malformedJSON:
            return send(answer, context, connection, line: line)
        }
    }

    /// `throttle`: the body goes out at `rate` bytes per second. The content reader sends what the
    /// budget allows, then suspends the connection until more is due, so no worker thread waits.
    private func dribble(_ canned: CannedResponse, _ extra: ExtraHeaders, rate: Int,
                         _ context: RequestContext, _ connection: OpaquePointer, line: RequestLogLine) -> MHD_Result {
        let source = Dribble(bytes: canned.body, rate: rate, connection: connection, router: self)
        let handle = Unmanaged.passRetained(source).toOpaque()
        let r = MHD_create_response_from_callback(UInt64(canned.body.count), 64 * 1024, Dribble.reader, handle, Dribble.release)!
        for h in canned.headers + extra.list { MHD_add_response_header(r, h.name, h.value) }
        let result = MHD_queue_response(connection, UInt32(canned.status), r)
        MHD_destroy_response(r)
        if let log {
            var line = line
            line.status = canned.status
            line.note = "throttled \(rate) B/s"
            log(line)
        }
        return result
    }

    /// Suspends a connection from inside a content reader, registered like any other suspension
    /// so `stop()` resumes it; false when the server is stopping.
    func suspendForDribble(_ connection: OpaquePointer, after nanoseconds: UInt64) -> Bool {
        let context = RequestContext()
        guard suspend(context, connection) else { return false }
        schedule(after: nanoseconds) { [self] in resume(context) }
        return true
    }

    private func logFault(_ fault: Fault, _ canned: CannedResponse, _ context: RequestContext, _ line: RequestLogLine) {
        guard let log else { return }
        var line = line
        line.status = fault == .truncatedBody ? canned.status : 0
        line.note = "fault \(fault.rawValue)"
        line.latencyMicroseconds = Int((DispatchTime.now().uptimeNanoseconds - context.started) / 1000)
        log(line)
    }

    private func waitForHits(_ context: RequestContext, _ connection: OpaquePointer, session: SessionState,
                             query: String, count: Int, timeout: Double) -> MHD_Result {
        context.pending = .hitsWait(session: session, query: query, count: count, waiterID: nil)
        guard suspend(context, connection) else {
            context.pending = nil
            return finishWait(context, connection, session: session, query: query, count: count)
        }
        let id = engine.waitForHits(session: session, query: query, count: count) { [self] in resume(context) }
        guard let id else {
            // Already reached: answer at once.
            resume(context)
            return .YES
        }
        context.pending = .hitsWait(session: session, query: query, count: count, waiterID: id)
        schedule(after: UInt64(timeout * 1e9)) { [self] in
            if engine.cancelWait(session: session, id: id) { resume(context) }
        }
        return .YES
    }

    private func finish(_ pending: RequestContext.Pending, _ context: RequestContext, _ connection: OpaquePointer) -> MHD_Result {
        switch pending {
        case .answer(let answer):
            return deliverNow(answer, context, connection)
        case let .hitsWait(session, query, count, waiterID):
            if let waiterID { engine.cancelWait(session: session, id: waiterID) }
            return finishWait(context, connection, session: session, query: query, count: count)
        case .hang:
            return .NO
        case let .stream(status, headers, body):
            let reply = Unmanaged.passRetained(StreamedReply(body: body, connection: connection, router: self)).toOpaque()
            let r = MHD_create_response_from_callback(UInt64.max, 64 * 1024, StreamedReply.reader, reply, StreamedReply.release)!
            for h in headers { MHD_add_response_header(r, h.name, h.value) }
            let result = MHD_queue_response(connection, UInt32(status), r)
            MHD_destroy_response(r)
            return result
        }
    }

    /// Suspends a connection from inside a content reader until `resume` is called with the returned
    /// context (registered like any other suspension, so `stop()` resumes it); nil when stopping.
    func suspendUntilResumed(_ connection: OpaquePointer) -> RequestContext? {
        let context = RequestContext()
        return suspend(context, connection) ? context : nil
    }

    private func finishWait(_ context: RequestContext, _ connection: OpaquePointer, session: SessionState,
                            query: String, count: Int) -> MHD_Result {
        let line = context.logLine ?? RequestLogLine(method: "GET", path: "/__stubd/hits/wait", status: 0, session: session.id,
                                                     latencyMicroseconds: 0, isAdmin: true)
        return send(.generated(engine.hitsWaitResult(session: session, query: query, count: count)), context, connection, line: line)
    }

    // MARK: Suspend and resume

    /// Checks for a stop, suspends and registers under one lock, so `stop()` can neither miss this
    /// connection nor resume it before it is suspended (MHD aborts on either).
    private func suspend(_ context: RequestContext, _ connection: OpaquePointer) -> Bool {
        suspended.withLock { state in
            if state.stopping { return false }
            context.connection = connection
            if context.socket < 0 { context.socket = shim_connection_fd(connection) }
            MHD_suspend_connection(connection)
            state.items[ObjectIdentifier(context)] = context
            return true
        }
    }

    /// Resumes at most once, from any thread; MHD then calls the handler again on its own thread.
    func resume(_ context: RequestContext) {
        guard !context.resumed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        suspended.withLock { state in
            state.items.removeValue(forKey: ObjectIdentifier(context))
            if let connection = context.connection { MHD_resume_connection(connection) }
        }
    }

    /// For `stop()`: no new suspensions, and every suspended request resumed so it can finish.
    func resumeAllForStop() -> Int {
        departures.cancel()
        let waiting: [RequestContext] = suspended.withLock { state in
            state.stopping = true
            return Array(state.items.values)
        }
        for context in waiting { resume(context) }
        return waiting.count
    }

    private func schedule(after nanoseconds: UInt64, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(min(nanoseconds, UInt64(Int.max)))), execute: work)
    }
}

/// A response whose headers promise the whole body but whose reader gives up halfway.
enum TruncatedBody {
    final class Source {
        let bytes: Data
        init(_ bytes: Data) { self.bytes = bytes }
    }

    static let reader: MHD_ContentReaderCallback = { cls, position, buffer, max in
        let source = Unmanaged<Source>.fromOpaque(cls!).takeUnretainedValue()
        let half = UInt64(source.bytes.count / 2)
        guard position < half else { return -2 } // MHD_CONTENT_READER_END_WITH_ERROR
        let n = Int(min(UInt64(max), half - position))
        source.bytes.withUnsafeBytes { raw in
            buffer!.update(from: raw.baseAddress!.advanced(by: Int(position)).assumingMemoryBound(to: CChar.self), count: n)
        }
        return n
    }

    static let release: MHD_ContentReaderFreeCallback = { cls in
        Unmanaged<Source>.fromOpaque(cls!).release()
    }

    static func response(for canned: CannedResponse, extraHeaders: [(name: String, value: String)]) -> OpaquePointer {
        let body = canned.body.isEmpty ? Data(repeating: UInt8(ascii: " "), count: 64) : canned.body
        let source = Unmanaged.passRetained(Source(body)).toOpaque()
        let r = MHD_create_response_from_callback(UInt64(body.count), 4096, reader, source, release)!
        for h in canned.headers + extraHeaders { MHD_add_response_header(r, h.name, h.value) }
        return r
    }
}

/// True when the peer of `socket` has closed or reset it. A peek neither consumes what a live
/// client sent (a pipelined request) nor waits.
func peerHasLeft(_ socket: Int32) -> Bool {
    var byte: UInt8 = 0
    let n = recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
    if n == 0 { return true }
    return n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
}

/// Whether a `Content-Length` value announces more than `limit` bytes. Digits past what `Int`
/// holds (≥ 2^63) are more than any limit, not "unreadable": they get the early 413 too.
func declaredLengthExceeds(_ value: UnsafePointer<CChar>, _ limit: Int) -> Bool {
    var n = 0
    var p = value
    while p.pointee == 0x20 || p.pointee == 0x09 { p += 1 }
    while p.pointee >= 0x30, p.pointee <= 0x39 {
        let (tens, overflow) = n.multipliedReportingOverflow(by: 10)
        guard !overflow, tens <= limit - Int(p.pointee - 0x30) else { return true }
        n = tens + Int(p.pointee - 0x30)
        p += 1
    }
    return false
}

/// True for `/../`, `/./`, a trailing `/..` or `/.`, however they were encoded (MHD has decoded them).
func hasDotSegment(_ path: String) -> Bool {
    var path = path
    // Over the bytes themselves: iterating `utf8` cost ~100 ns per request, more than the whole scan should.
    return path.withUTF8 { hasDotSegment($0) }
}

private func hasDotSegment(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var dots = 0
    var atSegmentStart = true
    for byte in bytes {
        if byte == UInt8(ascii: "/") {
            if dots == 1 || dots == 2 { return true }
            dots = 0
            atSegmentStart = true
        } else if byte == UInt8(ascii: "."), atSegmentStart || dots > 0 {
            dots += 1
            atSegmentStart = false
        } else {
            dots = 3
            atSegmentStart = false
        }
    }
    return dots == 1 || dots == 2
}

/// The state of one throttled body.
final class Dribble: @unchecked Sendable {
    /// The canned body itself (copy-on-write: nothing is copied per request).
    let bytes: Data
    let rate: Int
    let connection: OpaquePointer
    unowned let router: RequestRouter
    let started = DispatchTime.now().uptimeNanoseconds

    init(bytes: Data, rate: Int, connection: OpaquePointer, router: RequestRouter) {
        self.bytes = bytes
        self.rate = rate
        self.connection = connection
        self.router = router
    }

    static let reader: MHD_ContentReaderCallback = { cls, position, buffer, max in
        let d = Unmanaged<Dribble>.fromOpaque(cls!).takeUnretainedValue()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - d.started) / 1e9
        // A tenth of a second's worth at a time, so the dribble is smooth rather than bursty.
        let due = Swift.min(d.bytes.count, Int(Double(d.rate) * elapsed) + Swift.max(1, d.rate / 10))
        let available = due - Int(position)
        if available <= 0 {
            let wait = UInt64(Double(Int(position) + 1 - Int(Double(d.rate) * elapsed)) / Double(d.rate) * 1e9)
            // Suspended, MHD calls us again after the resume; stopping, the rest goes at once.
            if d.router.suspendForDribble(d.connection, after: Swift.max(1_000_000, wait)) { return 0 }
        }
        let n = Swift.min(max, Swift.max(1, available), d.bytes.count - Int(position))
        d.bytes.withUnsafeBytes { raw in
            buffer!.update(from: raw.baseAddress!.advanced(by: Int(position)).assumingMemoryBound(to: CChar.self), count: n)
        }
        return n
    }

    static let release: MHD_ContentReaderFreeCallback = { cls in
        Unmanaged<Dribble>.fromOpaque(cls!).release()
    }
}
