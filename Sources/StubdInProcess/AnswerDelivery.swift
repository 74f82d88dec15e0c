import Foundation
import HTTPTypes
import StubdCore
import StubdEngine
import StubdProtocol
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request's answer carried out to URLSession as a real socket would carry it: a delay before
/// it, a hang until the request's `timeoutInterval`, a fault as the error URLSession reports for
/// it, a throttled body, server-sent events each when due, a long-poll held until it fires.
final class AnswerDelivery: @unchecked Sendable {
    private let calls: ClientCalls
    private let url: URL
    private let isHead: Bool
    /// The request's `timeoutInterval`: what a hang, or a delay longer than it, ends in (`.timedOut`).
    private let timeoutNanoseconds: UInt64
    private let lock = NSLock()
    /// What a stop must undo: timers not yet fired, a long-poll's registration, a stream's alarm.
    private var undo: [@Sendable () -> Void] = []

    init(protocol owner: URLProtocol, client: (any URLProtocolClient)?, request: URLRequest) {
        calls = ClientCalls(owner, client: client)
        url = request.url ?? URL(string: "http://stubd.invalid/")!
        isHead = request.httpMethod?.uppercased() == "HEAD"
        let seconds = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        timeoutNanoseconds = UInt64(min(seconds, 86_400) * 1e9)
    }

    /// URLSession cancelled the load (the task was cancelled, or timed out by its own clock).
    func stop() {
        calls.stop()
        for step in lock.withLock({ () -> [@Sendable () -> Void] in defer { undo = [] }; return undo }) { step() }
    }

    func fail(_ error: URLError) { calls.fail(error) }

    func carryOut(_ answer: InProcessAnswer) {
        switch answer {
        case .generated(let generated):
            send(generated.status.code, generated.headers, generated.body)
        case .held(let hold):
            holdUntilItFires(hold)
        case let .stub(canned, extra, session, route, journal, lastEventID):
            if canned.fault == .hang {
                return after(timeoutNanoseconds) { [self] in fail(URLError(.timedOut)) }
            }
            let delay = canned.delay?.sample() ?? 0
            guard delay > 0 else { return deliver(canned, extra, session, route, journal, lastEventID) }
            guard delay < timeoutNanoseconds else { return after(timeoutNanoseconds) { [self] in fail(URLError(.timedOut)) } }
            after(delay) { [self] in deliver(canned, extra, session, route, journal, lastEventID) }
        }
    }

    /// A long-poll: answered when what it waits for happens, or when its time is up.
    private func holdUntilItFires(_ hold: AdminHold) {
        let answer: @Sendable () -> Void = { [self] in
            let generated = hold.answer()
            send(generated.status.code, generated.headers, generated.body)
        }
        guard let id = hold.register(answer) else { return answer() }
        onStop { _ = hold.cancel(id) }
        after(UInt64(max(0, hold.timeout) * 1e9)) {
            if hold.cancel(id) { answer() }
        }
    }

    /// A stub's answer once any delay is over, as its fault, throttle or stream has it go out.
    private func deliver(_ canned: CannedResponse, _ extra: ExtraHeaders, _ session: SessionState, _ route: String, _ journal: Int?,
                         _ lastEventID: String?) {
        let headers = canned.headers + extra.list
        if let events = canned.events {
            return EventDelivery(events, from: events.firstIndex(resumingAfter: lastEventID), session: session, route: route,
                                 journal: journal, to: self).start(status: canned.status.code, headers: headers)
        }
        if canned.webSocket != nil {
            let problem = GeneratedResponse.problem(501, title: "WebSocket needs a socket",
                                                    detail: "URLSessionWebSocketTask does not go through URLProtocol: reach this stub through a stub server's baseURL")
            return send(problem.status.code, problem.headers, problem.body)
        }
        switch canned.fault {
        case .connectionReset?:
            return fail(URLError(.networkConnectionLost))
        case .emptyResponse?:
            return fail(URLError(Self.emptyAnswerError))
        case .truncatedBody?:
            // Headers that promise the whole body, then half of it and the connection closed.
            let body = canned.body.isEmpty ? Data(repeating: UInt8(ascii: " "), count: 64) : canned.body
            respond(canned.status.code, headers, length: body.count)
            if !isHead { calls.load(body.prefix(body.count / 2)) }
            return fail(URLError(Self.truncatedAnswerError))
        case .hang?, .malformedJSON?, nil:
            break
        }
        guard let rate = canned.bytesPerSecond, rate > 0, !isHead else { return send(canned.status.code, headers, canned.body) }
        throttle(canned.status.code, headers, canned.body, rate: rate)
    }

    /// What URLSession reports for a connection closed before any answer: on Linux (libcurl's
    /// "empty reply", measured by FaultTests over a real socket) `.badServerResponse`; on Apple's
    /// `.networkConnectionLost` (from Apple's documentation, not run on a Mac here).
    static var emptyAnswerError: URLError.Code {
        #if canImport(Darwin)
        .networkConnectionLost
        #else
        .badServerResponse
        #endif
    }

    /// What URLSession reports for a body cut short of its `Content-Length`: on Linux `.unknown`
    /// (measured by FaultTests); on Apple's `.networkConnectionLost` (not run on a Mac here).
    static var truncatedAnswerError: URLError.Code {
        #if canImport(Darwin)
        .networkConnectionLost
        #else
        .unknown
        #endif
    }

    /// A throttled body: piece by piece at `rate` bytes a second on Apple's platforms. On Linux, a
    /// body given in several pieces reaches `data(for:)` and completion handlers as its last piece
    /// only (swift-corelibs-foundation, measured with Swift 6.3.1), so there it comes whole, when
    /// its last byte would have.
    private func throttle(_ status: Int, _ headers: HTTPFields, _ body: Data, rate: Int) {
        respond(status, headers, length: body.count)
        let start = DispatchTime.now().uptimeNanoseconds
        #if canImport(Darwin)
        let piece = max(1, rate / 10)
        func next(_ offset: Int) {
            guard offset < body.count else { return calls.finish() }
            let end = min(body.count, offset + piece)
            calls.load(body.subdata(in: offset..<end))
            let due = start + UInt64(Double(end) / Double(rate) * 1e9)
            after(due > DispatchTime.now().uptimeNanoseconds ? due - DispatchTime.now().uptimeNanoseconds : 0) { next(end) }
        }
        next(0)
        #else
        _ = start
        after(UInt64(Double(body.count) / Double(rate) * 1e9)) { [self] in
            calls.load(body)
            calls.finish()
        }
        #endif
    }

    // MARK: What the other parts use

    /// The status line and headers, with the `Content-Length` a server sends when the length is known.
    func respond(_ status: Int, _ headers: HTTPFields, length: Int?) {
        var fields: [String: String] = [:]
        for field in headers {
            let name = field.name.canonicalName
            fields[name] = fields[name].map { "\($0), \(field.value)" } ?? field.value
        }
        if let length, fields["Content-Length"] == nil, !(100..<200).contains(status), status != 204, status != 304 {
            fields["Content-Length"] = String(length)
        }
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields) else {
            return fail(URLError(.badServerResponse))
        }
        calls.respond(response)
    }

    /// A whole answer: head, body (none for `HEAD`), end.
    func send(_ status: Int, _ headers: HTTPFields, _ body: Data) {
        respond(status, headers, length: body.count)
        if !isHead { calls.load(body) }
        calls.finish()
    }

    func load(_ data: Data) { calls.load(data) }
    func finish() { calls.finish() }
    var isOver: Bool { calls.isOver }
    var requestTimeoutNanoseconds: UInt64 { timeoutNanoseconds }

    /// Runs `work` after `nanoseconds` on the wall clock, unless the load stops first.
    func after(_ nanoseconds: UInt64, _ work: @escaping @Sendable () -> Void) {
        let cancelled = Locked(false)
        onStop { cancelled.withLock { $0 = true } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(min(nanoseconds, UInt64(Int.max))))) {
            if !cancelled.withLock({ $0 }) { work() }
        }
    }

    /// `step` is run if the load stops (at once, when it stopped already).
    func onStop(_ step: @escaping @Sendable () -> Void) {
        let late = lock.withLock { () -> Bool in
            if calls.isOver { return true }
            undo.append(step)
            return false
        }
        if late { step() }
    }
}
