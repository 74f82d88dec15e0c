import Foundation
import HTTPTypes
import StubdCore
import StubdEngine
import StubdProtocol
import Synchronization

/// Turns libmicrohttpd's calls for a request into one `IncomingRequest`, hands it to the
/// `ResponderChain` (admin, stubs, forwarding), and puts the `Reply` on the wire. One object, fully
/// built before the daemon starts, handed to MHD as the handler's context.
final class RequestRouter: @unchecked Sendable {
    let engine: StubEngine
    let admin: AdminEndpoints
    let maxBodyBytes: Int
    /// `StubServer.Options.connectionMemoryBytes`, which bounds a request's head.
    let connectionMemoryBytes: Int
    /// Where each request's line goes (off: nothing is kept for one).
    let log: RequestLog
    let adminAccess: AdminAccess
    /// Which part of the folder answers a request for a host (proxy mode, TLS names).
    let hosts: HostScope
    /// Where a CONNECT's tunnel goes (the TLS workers); nil when the server has no TLS.
    let tunnels: TunnelHandOff?
    /// `--proxy-unknown pass` (see `StubServer.Options.passUnknownHosts`).
    let passUnknownHosts: Bool
    /// How a pass-through reaches the real host: `--timeout`, `--upstream-proxy`.
    let upstream: UpstreamSettings
    /// This server's own addresses and `Via` token: nothing is forwarded to stubd itself.
    let loop: ForwardingLoop
    /// How long a pass-through tunnel may go without a byte either way, or with an end taking none.
    let tunnelIdleSeconds: Int32
    /// The responders a request goes through, fixed at start.
    let chain: ResponderChain
    let active = Atomic<Int>(0)
    /// Requests whose connection is suspended, shared with the writer and streams' pauses.
    let suspensions = Suspensions()
    /// libmicrohttpd's form of the canned answers of the catalog in force, published with it (`install`).
    let preparedAnswers: PreparedAnswersInForce

    /// The WebSockets open now, closed by `stop()` before the daemons go.
    let webSockets = WebSocketRegistry()


    init(admin: AdminEndpoints, maxBodyBytes: Int, connectionMemoryBytes: Int = 16 * 1024, adminAccess: AdminAccess,
         hosts: HostScope = HostScope(), tunnels: TunnelHandOff? = nil, passUnknownHosts: Bool = false, forwarding: ForwardingOptions? = nil,
         upstream: UpstreamSettings = UpstreamSettings(), loop: ForwardingLoop = ForwardingLoop(),
         tunnelIdleSeconds: Int32 = BlindTunnel.defaultIdleSeconds,
         contracts: ContractSet? = nil, validation: RequestValidationMode = .report, log: (@Sendable (RequestLogLine) -> Void)?) {
        let engine = admin.engine
        preparedAnswers = PreparedAnswersInForce(PreparedAnswers(engine.catalog))
        let forwarding = forwarding.map { options in
            var settings = Forwarder.Settings(target: options.target)
            settings.timeoutSeconds = options.timeoutSeconds
            settings.maxBodyBytes = options.maxBodyBytes
            settings.maxDecodedBytes = options.maxDecodedBytes
            settings.connectionMemoryBytes = options.connectionMemoryBytes
            settings.caFile = options.caFile
            settings.insecure = options.insecure
            settings.upstreamProxy = upstream.proxy
            settings.loop = loop
            settings.relaysEventStreams = true
            return ForwardingResponder(engine: engine, options: options, forwarder: Forwarder(settings))
        }
        // `stubd record` forwards everything; `serve --proxy` what no stub answers; `serve` nothing.
        chain = ResponderChain(admin: AdminResponder(admin: admin, access: adminAccess),
                               stubs: forwarding?.options.scope == .everything ? nil
                                   : StubResponder(engine: engine, passesMisses: forwarding != nil, contracts: contracts, validation: validation),
                               forwarding: forwarding)
        self.engine = engine
        self.admin = admin
        self.adminAccess = adminAccess
        self.hosts = hosts
        self.tunnels = tunnels
        self.passUnknownHosts = passUnknownHosts
        self.upstream = upstream
        self.tunnelIdleSeconds = tunnelIdleSeconds
        self.loop = loop
        self.maxBodyBytes = maxBodyBytes
        self.connectionMemoryBytes = connectionMemoryBytes
        self.log = RequestLog(sink: log)
    }

    /// Query parameters a request whose target is `targetLength` bytes may have. libmicrohttpd keeps
    /// the request line in the connection's memory and a record of 64 bytes per parameter beside
    /// it, and the rest of the head and the answer's headers need room too; when they do not fit,
    /// 0.9.75 closes the connection without a word. Measured with 16 KiB and curl's headers
    /// (`p0=v&p1=v…`): 220 parameters were answered, 230 got a 431 sent twice, 236 and more nothing.
    /// 2 KiB is kept for the headers and the answer's: 200 such parameters still fit, as before.
    func maxQueryParameters(targetLength: Int) -> Int {
        max(16, (connectionMemoryBytes - 2048 - targetLength) / 64)
    }

    /// libmicrohttpd's calls for one request: what its slot holds (see `RequestSlot`) gives the
    /// request's `RequestLifecycle`, the call is its event, and the action it returns is done here.
    func handle(_ connection: borrowing Connection, _ url: UnsafePointer<CChar>, _ method: UnsafePointer<CChar>, _ version: UnsafePointer<CChar>?,
                _ uploadData: UnsafePointer<CChar>?, _ uploadSize: UnsafeMutablePointer<Int>, _ store: RequestSlotStore) -> CallResult {
        let event: RequestContext.Lifecycle.Event = uploadSize.pointee > 0
            ? .upload(UnsafeRawBufferPointer(start: uploadData, count: uploadData == nil ? 0 : uploadSize.pointee), limit: maxBodyBytes)
            : .accessCall
        let existing: RequestContext?
        let action: RequestContext.Lifecycle.Action
        // A plain request keeps no context: its lifecycle lives on the stack, one call at a time,
        // until a piece of body gives it something to keep.
        var life = RequestContext.Lifecycle(.readingHead)
        switch store.slot {
        case .nulInPath, .nulInQuery, .tooManyParameters:
            return refuseTarget(store.slot, connection, url, method, store)
        case .empty:
            (existing, action) = (nil, life.handle(event))
        case .plain:
            life = RequestContext.Lifecycle(.readingBody(Data()))
            (existing, action) = (nil, life.handle(event))
        case .tracked(let tracked):
            (existing, action) = (tracked, tracked.handle(event))
        }
        switch action {
        case .readHead:
            active.add(1, ordering: .relaxed)
            return readHead(connection, url, method, version, store)
        case .answer(let body):
            return answer(existing, body: body, store, connection, url, method)
        case .keepBody, .discardBody:
            // A plain request's first piece of body: its lifecycle, with the piece kept (or the body
            // found too large), moves into a context for the calls that follow.
            if existing == nil { store.keep(.tracked(RequestContext(life.state))) }
            uploadSize.pointee = 0
            return .carryOn
        case .refuse(let status):
            return send(.generated(.problem(HTTPResponse.Status(code: status), title: "Body too large",
                detail: "request bodies are limited to \(maxBodyBytes) bytes")), existing, connection,
                line: RequestLogLine(method: String(cString: method), path: String(cString: url), status: status, session: "", latencyMicroseconds: 0, isAdmin: false))
        case .finishPending(let work):
            // Only a context's lifecycle is ever held.
            guard let existing else { return .close }
            return finish(work, existing, connection)
        case .close, .suspend, .answerNow, .resume, .none, .ignore, .release:
            // No access call leads to these but `.close`: libmicrohttpd ends the connection.
            return .close
        }
    }

    /// A target `DaemonCallbacks.rawURIInspector` refused before the head was read (see `RequestSlot`).
    private func refuseTarget(_ slot: RequestSlot, _ connection: borrowing Connection, _ url: UnsafePointer<CChar>,
                              _ method: UnsafePointer<CChar>, _ store: RequestSlotStore) -> CallResult {
        let refusal: GeneratedResponse
        switch slot {
        case .nulInPath: refusal = .problem(400, title: "Bad path", detail: "a request path may not contain a NUL byte or %00")
        case let .tooManyParameters(count, length):
            refusal = .problem(414, title: "Too many query parameters",
                               detail: "the query has \(count) parameters; in a request target of \(length) bytes stubd reads at most \(maxQueryParameters(targetLength: length)) (each takes 64 bytes of a connection's \(connectionMemoryBytes) for a request's head): send fewer, or put them in a body")
        default:
            refusal = .problem(400, title: "Bad query",
                               detail: "a request query may not contain a NUL byte or %00: a stub matches query values as text, and it would cut the value short")
        }
        // Answered now, which makes libmicrohttpd close after the answer: the rest of a head
        // this broken is not worth reading.
        let context = RequestContext(.answering)
        store.keep(.tracked(context))
        active.add(1, ordering: .relaxed)
        let line = RequestLogLine(method: String(cString: method), path: String(cString: url), status: 0,
                                  session: "", latencyMicroseconds: 0, isAdmin: false)
        return send(.generated(refusal), context, connection, line: line)
    }

    /// The head's call (`RequestLifecycle.Action.readHead`): a CONNECT, a head refused on its framing
    /// or declared length, or set up for the calls that follow. Queueing an answer now makes 0.9.75
    /// close the connection after it (it treats it as an early reply), so only refusals do.
    private func readHead(_ connection: borrowing Connection, _ url: UnsafePointer<CChar>, _ method: UnsafePointer<CChar>,
                          _ version: UnsafePointer<CChar>?, _ store: RequestSlotStore) -> CallResult {
        if method.pointee == 0x43 && strcmp(method, "CONNECT") == 0 {
            return connect(connection, authority: String(cString: url), store)
        }
        let declared = connection.header("Content-Length")
        // The Upgrade header is looked up only for a version other than 1.1, so a plain request pays one strcmp.
        if let version, strcmp(version, "HTTP/1.1") != 0,
           let refusal = WebSocketHandshake.versionRefusal(httpVersion: String(cString: version), upgrade: connection.headerString("Upgrade")) {
            let context = RequestContext(.answering)
            store.keep(.tracked(context))
            let line = RequestLogLine(method: String(cString: method), path: String(cString: url), status: 400,
                                      session: "", latencyMicroseconds: 0, isAdmin: false)
            return send(.generated(refusal), context, connection, line: line)
        } else if let problem = RequestFraming.problem(in: connection, version: version) {
            // Answered now, which makes libmicrohttpd close after the answer: nothing after this
            // head can be trusted to be the next request.
            let context = RequestContext(.answering)
            store.keep(.tracked(context))
            let line = RequestLogLine(method: String(cString: method), path: String(cString: url), status: problem.status,
                                      session: "", latencyMicroseconds: 0, isAdmin: false)
            return send(.generated(.problem(HTTPResponse.Status(code: problem.status), title: problem.title, detail: problem.detail)), context, connection, line: line)
        } else if let declared, DeclaredLength.exceeds(declared, maxBodyBytes > Int.max / 16 ? Int.max : maxBodyBytes * 16)
                    || (DeclaredLength.exceeds(declared, maxBodyBytes) && connection.header("Expect") != nil) {
            // Far past the limit (up to 2^64), or waiting for a `100 Continue` before it sends: answered
            // before reading a byte of it. Queueing now makes libmicrohttpd close after the answer (and
            // send no 100); a client already sending may see a reset rather than the 413, so a body
            // only somewhat too large, sent without asking, is read and dropped instead.
            let context = RequestContext(.answering)
            store.keep(.tracked(context))
            let line = RequestLogLine(method: String(cString: method), path: String(cString: url), status: 413,
                                      session: "", latencyMicroseconds: 0, isAdmin: false)
            return send(.generated(.problem(413, title: "Body too large",
                detail: "request bodies are limited to \(maxBodyBytes) bytes")), context, connection, line: line)
        } else if let declared, DeclaredLength.exceeds(declared, maxBodyBytes) {
            let context = RequestContext(.readingBody(Data()))
            context.handle(.bodyOverLimit)
            store.keep(.tracked(context))
        } else {
            store.keep(!log.isOn ? .plain : .tracked(RequestContext(.readingBody(Data()))))
        }
        return .carryOn
    }

    /// The request's context, created now if the request had none (a delay or long-poll needs one).
    func context(_ existing: RequestContext?, _ store: RequestSlotStore) -> RequestContext {
        if let existing { return existing }
        let context = RequestContext(.answering)
        store.keep(.tracked(context))
        return context
    }

    // MARK: The catalog

    /// Puts `catalog` in force: libmicrohttpd's form of its answers made first (`PreparedAnswers`), so
    /// its first requests pay nothing, then the catalog swapped into the engine. A request between
    /// the two swaps answered from the old catalog finds no prepared form and gets one made for it.
    func install(_ catalog: StubCatalog) {
        preparedAnswers.publish(PreparedAnswers(catalog))
        engine.install(catalog)
    }

    // MARK: The first answer

    /// Reads the request, asks the chain for a reply and sends it.
    func answer(_ existing: RequestContext?, body: Data, _ store: RequestSlotStore,
                _ connection: borrowing Connection,
                _ url: UnsafePointer<CChar>, _ methodPointer: UnsafePointer<CChar>) -> CallResult {
        // Most requests are GETs: the literal is a constant, where reading the bytes measured a length
        // scan and a validation each time.
        let method = methodPointer.pointee == 0x47 && strcmp(methodPointer, "GET") == 0 ? "GET" : String(cString: methodPointer)
        let rawPath = String(cString: url)
        var request: IncomingRequest
        switch IncomingRequest.read(connection, method: method, rawPath: rawPath, body: body,
                                    answers: preparedAnswers.value, hosts: hosts) {
        case .success(let read): request = read
        case .failure(.refused(let problem, let line)): return send(.generated(problem), existing, connection, line: line)
        case .failure(.unknownHost(let authority, let head, let session, let line)):
            guard passUnknownHosts else { return send(.generated(AbsoluteForm.notServed(authority)), existing, connection, line: line) }
            return passThrough(head, to: authority, session: session, context(existing, store), connection, line: line)
        }
        let reply = chain.respond(to: &request)
        return put(reply, for: &request, existing, store, connection)
    }

    /// Puts a reply on the wire: at once, held for a stub's behaviour, rendered off the worker,
    /// waited for (a long-poll) or forwarded. The request is `inout` and the reply consumed so that
    /// the log line is filled in where it lies and the reply taken apart without a copy: a local
    /// `var line = request.logLine` and a borrowed reply cost five copies of the two (137 and 153
    /// bytes) on every plain request (issue 40, the handler's own cost).
    private func put(_ reply: consuming Reply, for request: inout IncomingRequest, _ existing: RequestContext?,
                     _ store: RequestSlotStore, _ connection: borrowing Connection) -> CallResult {
        switch consume reply {
        case .now(let response):
            return send(response, existing, connection, line: request.logLine)
        case .hold(let hold):
            let context = context(existing, store)
            context.logLine = request.logLine
            return holdAdmin(hold, context, connection)
        case let .forward(session, forwarding):
            return forward(request.head, session, forwarding, context(existing, store), connection, line: request.logLine)
        case .stub(let outcome):
            // Only for a log that will print them: the quota note's string cost ~2% of a quota'd request,
            // and the route's key is shared by the workers (retaining it is a write to a shared cache line).
            if log.isOn {
                request.logLine.route = outcome.route?.key
                request.logLine.quota = outcome.quotaNote
                if let problems = outcome.contractProblems { request.logLine.note = RequestLog.contractNote(problems) }
            } else if case .canned(let canned, _) = outcome.answer, canned.events != nil || canned.webSocket != nil {
                // A stream counts what it carries under its route (`StreamTraffic`), log or no log.
                request.logLine.route = outcome.route?.key
            }
            // A stream journals what it carries under its entry (nil for anything else).
            request.logLine.connection = outcome.connection
            if let job = outcome.deferred {
                return renderOffWorker(job, context(existing, store), connection, line: request.logLine)
            }
            // One switch, the parts moved into the response: the plain route copies no `Outcome`.
            switch outcome.answer {
            case let .canned(canned, extra) where canned.isStatic:
                return send(.canned(canned, extra), existing, connection, line: request.logLine, answers: request.answers)
            case .canned:
                return deliverStub(outcome.answer, context(existing, store), connection, line: request.logLine)
            case .generated(let generated):
                return send(.generated(generated), existing, connection, line: request.logLine)
            }
        }
    }

    // MARK: Sending

    /// Writes a response as it is (no behaviour applies here), then the log line (a request
    /// without a context has none: the log is off). `note`: what happened to it (a fault, a throttle).
    /// `answers`: the request's catalog's prepared answers, when the caller has them at hand (the
    /// plain route's path); otherwise the writer reads the ones in force.
    func send(_ response: Response, _ context: RequestContext?, _ connection: borrowing Connection,
              line: RequestLogLine, note: String? = nil, answers: PreparedAnswers? = nil) -> CallResult {
        let writer = ResponseWriter(suspensions: suspensions, inForce: preparedAnswers, answers: answers)
        guard let context else { return writer.write(response, on: connection) }
        switch response {
        case .stream: context.handle(.streamQueued)
        case .upgrade: context.handle(.upgradeQueued)
        default: break
        }
        return writer.write(response, on: connection, finishing: line, note: note, started: context.started, log: log)
    }

    /// Writes a response through the one writer, without a log line.
    func write(_ response: Response, _ connection: borrowing Connection) -> CallResult {
        ResponseWriter(suspensions: suspensions, inForce: preparedAnswers).write(response, on: connection)
    }
}
