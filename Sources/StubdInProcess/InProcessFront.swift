package import Foundation
import HTTPTypes
package import StubdCore
package import StubdEngine
import StubdProtocol
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The engine answering `URLSession` inside the test process, without a socket: the front a
/// `StubURLProtocol` class calls. It asks what the libmicrohttpd front asks, in the same words: the
/// target (`/__s/ID`, `/__stubd/`), the admin API (`AdminEndpoints`), the stubs held to the specs
/// (`ContractedAnswer`), a template rendered (`StubEngine.render`). What the wire would do with
/// the answer (a delay, a fault, a stream) is `AnswerDelivery`'s.
package final class InProcessFront: Sendable {
    package let engine: StubEngine
    package let admin: AdminEndpoints
    let contracts: ContractSet?
    /// `--validate requests=`: checked at all, and refused when broken (strict).
    let checksRequests: Bool
    let refusesBrokenRequests: Bool
    /// Each session's `URLProtocol` class (`ProtocolSlot`), made on first use.
    private let slots = Locked<(numbers: [String: Int], closed: Bool)>(([:], false))

    /// `engine` and `admin` as a server made them, or new ones for a folder alone (`load`).
    package init(engine: StubEngine, admin: AdminEndpoints, contracts: ContractSet? = nil, checksRequests: Bool = true,
                 refusesBrokenRequests: Bool = false) {
        self.engine = engine
        self.admin = admin
        self.contracts = contracts
        self.checksRequests = checksRequests
        self.refusesBrokenRequests = refusesBrokenRequests
    }

    /// Loads `stubs` as `stubd serve` does (every problem at once, as `CatalogLoadError`), each
    /// stub held to `contracts` when there are specs.
    package static func load(stubs: URL, contracts: ContractSet? = nil, strict: Bool = false) throws -> InProcessFront {
        let catalog = try StubCatalog.load(stubs: stubs, heldTo: contracts)
        let engine = StubEngine(catalog: catalog, specs: contracts, contractRequests: strict ? "strict" : "report")
        return InProcessFront(engine: engine, admin: AdminEndpoints(engine: engine, contracts: contracts), contracts: contracts,
                              refusesBrokenRequests: strict)
    }

    deinit { close() }

    /// Every session's class answers nothing from now on: a request through one fails, saying so.
    func close() {
        let numbers = slots.withLock { slots in
            defer { slots = ([:], true) }
            return Array(slots.numbers.values)
        }
        for number in numbers { SlotTable.free(number) }
    }

    /// The `URLProtocol` class that answers from this front in `session`, whatever host a request names.
    package func protocolClass(session: String) -> AnyClass {
        let number = slots.withLock { slots in
            if let number = slots.numbers[session] { return number }
            let number = SlotTable.take(for: self, session: session)
            // Closed: a class that answers nothing, so a configuration made now fails as one made before.
            if slots.closed { SlotTable.free(number) } else { slots.numbers[session] = number }
            return number
        }
        return StubURLProtocolClass.make(NoBits.slot(number))
    }

    /// What `request` gets, in `session` unless its path (`/__s/ID`) or `X-Stubd-Session` names another.
    func answer(_ request: URLRequest, session: String) -> InProcessAnswer {
        let head: RequestHead
        do {
            head = try RequestHead(request)
        } catch let error as UnreadableRequest {
            return .generated(.problem(HTTPResponse.Status(code: error.status), title: error.status == 413 ? "Content too large" : "Bad request",
                                       detail: error.description))
        } catch {
            return .generated(.problem(400, title: "Bad request", detail: "\(error)"))
        }
        let named = head.headers[.stubdSession]
        let target = RequestTarget.resolve(path: head.path, sessionHeader: named ?? (session.isEmpty ? nil : session),
                                           sessionQuery: head.query.first { $0.name == "session" }?.value ?? nil)
        guard RequestTarget.isValidSession(target.session) else {
            return .generated(.problem(400, title: "Bad session id",
                                       detail: "session ids are at most 64 letters, digits, '-', '_' or '.'"))
        }
        // The path without its `/__s/ID`, as the engine matches it (`normalizedPath` is made from it).
        let inSession = RequestHead(method: head.method, path: target.path, query: head.query, headers: head.headers, body: head.body)
        if let call = target.adminCall { return adminAnswer(call, inSession, session: target.session) }
        switch ContractedAnswer.answer(inSession, session: target.session, engine: engine, contracts: contracts,
                                       checked: checksRequests, strict: refusesBrokenRequests) {
        case .refused(let refusal):
            return .generated(refusal)
        case .passed:
            return .generated(.problem(404, title: "Not found", detail: "no stub answers \(inSession.concretePath)"))
        case .answer(var outcome):
            // Rendering is long only for a big template; here it runs off URLSession's thread already.
            if let job = outcome.deferred { outcome = engine.render(job) }
            switch outcome.answer {
            case .generated(let generated): return .generated(generated)
            case let .canned(canned, extra):
                return .stub(canned, extra, session: engine.session(target.session), route: outcome.route?.key ?? "",
                             journal: outcome.connection, lastEventID: inSession.headers[HTTPField.Name("Last-Event-ID")!])
            }
        }
    }

    /// `/__stubd/…`: the admin API, with no token to check (nothing outside this process can reach
    /// it). The dashboard and its change feed are pages for a browser, which only a socket has.
    private func adminAnswer(_ call: String, _ head: RequestHead, session id: String) -> InProcessAnswer {
        guard let endpoint = AdminEndpoint(method: head.method, call: call) else {
            return .generated(AdminEndpoints.noSuchCall(method: head.method, call: call))
        }
        switch endpoint {
        case .dashboard, .events:
            return .generated(.problem(404, title: "No dashboard in process",
                                       detail: "/__stubd/\(call) is the dashboard's, which a browser reaches over a socket: run `stubd serve`"))
        default:
            break
        }
        switch admin.answer(endpoint, query: head.query, body: head.body, session: admin.sessions.session(id)) {
        case .response(let generated): return .generated(generated)
        case .hold(let hold): return .held(hold)
        }
    }
}
