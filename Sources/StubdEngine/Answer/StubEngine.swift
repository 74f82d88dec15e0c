import Foundation
package import HTTPTypes
import StubdProtocol
import Synchronization

/// The answerer: picks the answer for a request in one session, counts it, applies quotas, fills
/// its template and journals it. Knows nothing of sockets nor of the admin API (`AdminEndpoints`);
/// the transport hands it a `RequestHead` and sends the `Outcome` it returns.
package final class StubEngine: Sendable {
    package static let version = "0.1.0"

    /// The catalog in force. A replaced one is freed when the last request using it is done.
    private let current: PublishedValue<StubCatalog>
    /// The sessions requests and admin calls are answered in.
    package let sessions: SessionRegistry
    /// Told of events worth a log line (a quota's key cap reached).
    private let notice: (@Sendable (String) -> Void)?
    /// Bytes a template may render for one answer (`stubd serve --max-render`); past it the request
    /// gets a 500 naming the cap, and the journal says why.
    package let maxRenderedBytes: Int
    package static let defaultMaxRenderedBytes = 8 << 20
    /// What the specs served beside the stubs (`serve --spec`, repeatable) say of answers: their
    /// examples in other media types, their statuses, their servers' prefixes, whether a runtime
    /// stub's answer keeps to them. Nil without one.
    package let specs: (any SpecAnswers)?
    /// `specs != nil`, stored: testing the existential for nil copied it out and destroyed the copy,
    /// ~140 instructions on every plain request (callgrind, `Benchmarks/instructions.sh`).
    package let hasSpecs: Bool
    /// What the transport does with a request that breaks `contract` (`report`, `strict`, `off`),
    /// for `GET /__stubd/contract` to say.
    package let contractRequests: String
    /// `serve --graphql-schema`: GraphQL requests are held to it before any route is asked (what a
    /// request that breaks it gets: `contractRequests`).
    package let graphQLSchema: GraphQLSchema?
    /// Which sessions changed, for the dashboard's event streams; one relaxed load while none is open.
    package let changes = ChangeFeed()

    package init(catalog: StubCatalog, journalCapacity: Int = 1000, maxSessions: Int = 1000,
                sessionStorage: Int = SessionStorage.defaultLimit,
                maxRenderedBytes: Int = StubEngine.defaultMaxRenderedBytes, notice: (@Sendable (String) -> Void)? = nil,
                specs: (any SpecAnswers)? = nil, contractRequests: String = "report", graphQLSchema: GraphQLSchema? = nil) {
        self.specs = specs
        self.graphQLSchema = graphQLSchema
        self.hasSpecs = specs != nil
        self.contractRequests = contractRequests
        self.maxRenderedBytes = max(1, maxRenderedBytes)
        self.notice = notice
        let current = PublishedValue(catalog)
        self.current = current
        self.sessions = SessionRegistry(catalogs: current, journalCapacity: journalCapacity, maxSessions: maxSessions,
                                        storage: SessionStorage(limit: sessionStorage), notice: notice)
    }

    /// The catalog requests are answered from now.
    package var catalog: StubCatalog { current.value }

    /// Swaps in a reloaded catalog atomically: a request sees the old one or the new one, never a mix.
    /// Hit counts of routes that survive (same name, or same method and pattern) carry over: sessions
    /// keep them by route key.
    package func install(_ catalog: StubCatalog) {
        current.publish(catalog)
        changes.note("*")
    }

    /// The session a request or admin call belongs to (`SessionRegistry.session(_:)`).
    package func session(_ id: String) -> SessionState { sessions.session(id) }

    /// The session of requests that name none.
    package var defaultSession: SessionState { sessions.defaultSession }

    // MARK: Answering

    /// The engine's one entry for a front: a request and the id of its session in (`""`, the default
    /// session), how it is answered out. The engine finds the session, gives the request the
    /// session's preferred answer (`PUT /__stubd/prefer`) when it asks for none, and answers it
    /// (`respond(to:in:)`). `passingMisses` (`serve --proxy`): nil when no stub answers, nothing
    /// counted, for the front to pass the request on as it came. A template left to render
    /// (`Outcome.deferred`) is the front's to render (`render(_:)`), where it may block.
    package func answer(_ request: RequestHead, session id: String, catalog: StubCatalog? = nil, passingMisses: Bool = false,
                        contractProblems: [String]? = nil) -> Outcome? {
        let session = sessions.session(id)
        // Two calls, not `applyingPreference(to:) ?? request`: that copied the whole head on every request.
        if let preferred = session.applyingPreference(to: request) {
            return respond(to: preferred, in: session, catalog: catalog, passingMisses: passingMisses, contractProblems: contractProblems)
        }
        return respond(to: request, in: session, catalog: catalog, passingMisses: passingMisses, contractProblems: contractProblems)
    }

    /// One request, in four steps: match it, take the route's next answer (counting the hit),
    /// charge its quotas, fill its template; then journal what came of it. `catalog`: the one in
    /// force when the transport read the request, so the request reads it once (nil: read it now).
    package func respond(to request: RequestHead, in session: SessionState, catalog: StubCatalog? = nil,
                         contractProblems: [String]? = nil) -> Outcome {
        respond(to: request, in: session, catalog: catalog, passingMisses: false, contractProblems: contractProblems)!
    }

    /// `contractProblems`: how the request breaks the spec (`serve --spec`, report mode), nil when it
    /// keeps to it; the outcome carries them to the journal, the log line and a response header.
    func respond(to request: RequestHead, in session: SessionState, catalog: StubCatalog?, passingMisses: Bool,
                 contractProblems: [String]?) -> Outcome? {
        if let graphQL = (catalog ?? self.catalog).graphQL, request.graphQL == nil, graphQL.serves(request) {
            return respondGraphQL(to: request, graphQL, in: session, catalog: catalog, passingMisses: passingMisses,
                                  contractProblems: contractProblems)
        }
        let wall = Date()
        guard let (decided, misses) = decide(request, in: session, catalog ?? self.catalog, wall, passingMisses: passingMisses) else { return nil }
        // Moved, not copied (`contractProblems.map { … } ?? decided` copied the whole outcome).
        var outcome = decided
        if let contractProblems { outcome = outcome.reporting(contractProblems) }
        if let unmet = unmetPreference(request, answeredBy: outcome, in: session, catalog ?? self.catalog) {
            // Strict: the miss it is (as Prism's 404 for a status or example it does not have); else said, and served.
            outcome = contractRequests == "strict"
                ? Outcome(answer: .generated(.problem(404, title: "No stub answers this Prefer", detail: unmet)), route: nil,
                          notes: [unmet], contractProblems: outcome.contractProblems)
                : outcome.noting(unmet, header: Self.preferHeader)
        }
        // A template left to the transport to render is journaled once rendered, with what rendering noted.
        if outcome.deferred != nil { return outcome }
        let route = outcome.route?.key
        return journaled(consume outcome, request, route: route, misses: misses, in: session, at: wall)
    }

    /// `outcome`, journaled, with the connection id a stream's messages are journaled under. Taken and
    /// handed back, not copied: `outcome.connection = journal(request, outcome, …)` read the outcome
    /// out of its `var` whole to lend it, and wrote it back (two copies of it a request since e90c22a).
    @inline(__always)
    func journaled(_ outcome: consuming Outcome, _ request: RequestHead, route: String?, misses: [String],
                           in session: SessionState, at wall: Date) -> Outcome {
        let final = consume outcome
        let connection = journal(request, final, route: route, misses: misses, in: session, at: wall)
        guard connection != nil else { return final }
        var streaming = consume final
        streaming.connection = connection
        return streaming
    }

    /// The outcome, and for a miss the nearest routes with why each missed; nil for a miss when
    /// `passingMisses`.
    private func decide(_ request: RequestHead, in session: SessionState, _ first: StubCatalog, _ wall: Date,
                        passingMisses: Bool) -> (Outcome, misses: [String])? {
        var catalog = first
        while true {
            // One catalog for the pass: a reload meanwhile must not pair a route with another catalog's state.
            switch match(request, in: session, catalog) {
            case .matched(let route, let parameters):
                // Nil when a concurrent request took the last of the route's `times` since matching:
                // the request is matched again (and counted and journaled once, by that pass).
                let state = session.state(for: route, generation: catalog.generation)
                if let binding = route.resource {
                    if let outcome = resourceAnswer(binding, route, state, parameters, request, session, wall) { return (outcome, []) }
                } else if let outcome = answer(route, state, parameters, request, session, wall) { return (outcome, []) }
            case .wrongMethod(let allowed, let near):
                if passingMisses { return nil }
                session.unmatched.add(1, ordering: .relaxed)
                return (methodNotAllowed(request, allowed: allowed, near: near), near.map(\.description))
            case .notFound(let near):
                if passingMisses { return nil }
                session.unmatched.add(1, ordering: .relaxed)
                return (noStubMatches(request, near: near), near.map(\.description))
            }
            // The route ran out of `times` meanwhile: the next pass reads the catalog in force now.
            catalog = self.catalog
        }
    }

    /// As written, then, when nothing answers and the spec's servers put a prefix before its paths
    /// (`/v1`), without the prefix: a client generated from the spec sends `/v1/pets/7` to the route
    /// `/pets/{id}` that the import, or a hand, wrote as the spec's path. Misses pay for it, hits do not.
    private func match(_ request: RequestHead, in session: SessionState, _ catalog: StubCatalog) -> MatchResult {
        let asWritten = matchAsWritten(request, in: session, catalog)
        guard case .notFound = asWritten, hasSpecs, let prefixes = specs?.serverPrefixes, !prefixes.isEmpty else { return asWritten }
        let segments = request.segments
        for prefix in prefixes {
            guard let rest = prefix.strip(segments) else { continue }
            let stripped = RequestHead(method: request.method, path: "/" + rest.joined(separator: "/"), query: request.query,
                                       headers: request.headers, body: request.body, clientAddress: request.clientAddress)
            let found = matchAsWritten(stripped, in: session, catalog)
            if case .notFound = found { continue }
            return found
        }
        return asWritten
    }

    /// The session's runtime stubs first, then the catalog in force.
    private func matchAsWritten(_ request: RequestHead, in session: SessionState, _ catalog: StubCatalog) -> MatchResult {
        if session.hasRuntimeStubs {
            let runtime = session.runtimeMatch(request)
            if case .matched = runtime { return runtime }
        }
        // One way: the catalog matches, the session says whether the route still answers (a used-up
        // `times`, a scenario in another state), and a used-up route is matched past. Routes with
        // neither (most) are available without a lock.
        var excluded: Set<Int> = []
        while true {
            let found = catalog.match(request, excluding: excluded)
            guard case .matched(let route, _) = found, !session.isAvailable(route, request) else { return found }
            excluded.insert(route.index)
        }
    }

    /// The route's next answer with the hit counted and its quotas charged, its template filled (or
    /// left to the transport, `Outcome.deferred`, when it may take long); nil when the route has no
    /// answer left (see `decide`). Inlined into `decide`, its one caller: once keyed scenarios and
    /// WebSockets grew it, it was called, and the `Outcome` it returns was copied through memory three
    /// more times a request (with the scenario fast path of `nextResponse`, ~230 instructions, callgrind).
    @inline(__always)
    private func answer(_ route: Route, _ state: RouteState, _ parameters: [String: String], _ request: RequestHead,
                        _ session: SessionState, _ wall: Date) -> Outcome? {
        let next: CannedResponse?
        do { next = try session.nextResponse(route, request) } catch { return scenarioRefused(error, route) }
        guard let response = next else { return nil }
        // Open to pushes before the hit shows (issue 41): a test that waited for the hit pushes at once.
        if response.webSocket != nil { session.streams.connecting(route: route.key) }
        session.recordHit(route, state, request)
        // A cache's revalidation or a resumed download (`If-None-Match`, `Range`…): read only for an
        // answer with validators, in one pass over the headers; nil for nearly every request.
        let conditions = response.validators == nil ? nil : ConditionalRequest(request.headers)
        let verdict = conditions?.verdict(for: response.validators!, bodyLength: response.body.count, method: request.method)
        // Quotas first: an answer they refuse is not rendered at all.
        var outcome = charge(route, state, response, parameters, request, session, wall, notModified: verdict == .notModified)
        if response.webSocket != nil, case .generated = outcome.answer { session.streams.abandoned(route: route.key) }
        // Only an answer with bodies to choose among (`content:`), or a spec's examples to offer, reads
        // Accept: a plain stub's answer pays one check here.
        if hasSpecs || !response.alternatives.isEmpty { outcome = negotiated(outcome, request) }
        if let conditions, let verdict, case .canned(let canned, let extra) = outcome.answer, let validators = canned.validators,
           // Judged again only when negotiation chose another body than the one judged above.
           let narrowed = canned.answering(canned === response ? verdict
                                           : conditions.verdict(for: validators, bodyLength: canned.body.count, method: request.method)) {
            outcome = outcome.replacingCanned(narrowed, extraHeaders: extra)
        }
        if case .runtime = route.source, response.template == nil, hasSpecs {
            // A runtime stub that breaks the spec was taken (report mode): each answer says so, as a request's problems are said.
            outcome = outcome.reporting(answerProblems(outcome, of: route))
        }
        guard let template = response.template, case .canned(_, let extra) = outcome.answer else { return outcome }
        var input = TemplateInput(request: request, parameters: parameters, now: session.clock.now(wall: wall),
                                  hits: state.counter.count, random: session.nextRandom)
        input.state = TemplateStateView(session: session, catalog: catalog)
        let job = DeferredRender(template: template, canned: response, extraHeaders: extra, input: input, route: route,
                                 quota: outcome.quota, request: request, session: session, wall: wall)
        if template.rendersLong { return Outcome(answer: outcome.answer, route: route, quota: outcome.quota, deferred: job) }
        return rendered(job)
    }

    /// A resource's route: its hit counted and its quotas charged as any route's, then the session's
    /// items answer. Apart from `answer`, which the plain route takes: with this branch inside it,
    /// `answer` was no longer inlined into `decide` and every request paid for a call and an `Outcome`
    /// copied through memory (~260 instructions, callgrind, c5bf012 against 66bd6c6).
    @inline(never)
    private func resourceAnswer(_ binding: ResourceBinding, _ route: Route, _ state: RouteState, _ parameters: [String: String],
                                _ request: RequestHead, _ session: SessionState, _ wall: Date) -> Outcome? {
        let next: CannedResponse?
        do { next = try session.nextResponse(route, request) } catch { return scenarioRefused(error, route) }
        guard let response = next else { return nil }
        session.recordHit(route, state, request)
        // Quotas first: the items answer only a request they let through.
        let outcome = charge(route, state, response, parameters, request, session, wall)
        guard case .canned(_, let extra) = outcome.answer else { return outcome }
        return resourceOutcome(binding, parameters, request, session, extra: extra, quota: outcome.quota, route: route)
    }

    /// A move refused (a key out of bounds, or no room for it: `maxKeys`, the sessions' storage budget):
    /// answered with what to do, nothing answered or moved.
    private func scenarioRefused(_ error: ScenarioRefusal, _ route: Route) -> Outcome {
        Outcome(answer: .generated(.problem(error.status, title: error.title, detail: error.detail)), route: route,
                notes: [error.detail])
    }

    private func methodNotAllowed(_ request: RequestHead, allowed: [String], near: [NearMiss]) -> Outcome {
        Outcome(answer: .generated(.problem(405, title: "Method not allowed",
            detail: "\(request.method) \(request.normalizedPath) is stubbed only for \(allowed.joined(separator: ", "))",
            extra: ["nearest": .array(near.map { .string($0.description) })],
            headers: [.allow: allowed.joined(separator: ", ")])), route: nil)
    }

    private func noStubMatches(_ request: RequestHead, near: [NearMiss]) -> Outcome {
        let detail = near.isEmpty
            ? "no stub answers \(request.method) \(request.normalizedPath), and no route is near it"
            : "no stub answers \(request.method) \(request.normalizedPath); nearest: " + near.map(\.description).joined(separator: "; ")
        return Outcome(answer: .generated(.problem(404, title: "No stub matches", detail: detail, extra: ["nearest": .array(near.map { miss in
            var fields: [String: JSONValue] = ["route": .string(miss.route.signature),
                                               "source": .string(miss.route.source.description), "why": .string(miss.reason)]
            if let name = miss.route.name { fields["name"] = .string(name) }
            return .object(fields)
        })])), route: nil)
    }

    /// Renders a template answer the transport was left with (`Outcome.deferred`), and journals it.
    package func render(_ job: DeferredRender) -> Outcome {
        journaled(rendered(job).reporting(job.requestProblems ?? []), job.request, route: job.route.key, misses: [], in: job.session, at: job.wall)
    }

    /// Journals `request` with the outcome that answered it, once that outcome is final; for a
    /// WebSocket or an event stream, returns the id its messages are journaled under (`StreamJournal`).
    /// Inlined, as the next: called, they copied the outcome's parts once more a request (~45 instructions).
    @inline(__always)
    private func journal(_ request: RequestHead, _ outcome: Outcome, route: String?, misses: [String],
                         in session: SessionState, at wall: Date) -> Int? {
        let connection = outcome.opensStream ? StreamJournal.newConnection() : nil
        journal(request, in: session, at: wall, status: outcome.status, route: route, misses: misses, notes: outcome.notes,
                contract: outcome.contractProblems, took: Self.microseconds(since: wall), quota: outcome.quota?.journalForm,
                connection: connection, bodies: JournalBodies(request: request, answer: outcome.answer))
        return connection
    }

    /// The one place a journal entry is written, and the dashboard told (`changes`): for a stub's
    /// answer, a template rendered off the worker and a request passed on to the real API alike.
    @inline(__always)
    private func journal(_ request: RequestHead, in session: SessionState, at wall: Date, status: HTTPResponse.Status,
                         route: String?, misses: [String], notes: [String]?, contract: [String]? = nil,
                         took: Int32? = nil, quota: JournalQuotaNote? = nil, connection: Int? = nil, bodies: JournalBodies? = nil) {
        session.journal.append(JournalEntry(time: wall, method: request.method, path: request.path, query: request.query,
                                            headers: request.headers, status: status, route: route, misses: misses,
                                            notes: notes, contract: contract, tookMicroseconds: took, quota: quota,
                                            connection: connection, sessionTime: session.clock.now(wall: wall), bodies: bodies))
        changes.note(session.id)
    }

    /// Microseconds since `start` (the request's `wall`), for the journal: one more clock read.
    static func microseconds(since start: Date) -> Int32 {
        Int32(clamping: Int((Date().timeIntervalSince(start) * 1_000_000).rounded()))
    }

    /// How a rendered answer breaks the operation its route answers for, as `check --spec` would
    /// have said of a canned one (`answer: /temp: expected number, got string`).
    private func answerProblems(_ outcome: Outcome, of route: Route) -> [String] {
        guard let specs, case .canned(let canned, let extra) = outcome.answer else { return [] }
        var names = Set(canned.headers.map { $0.name.canonicalName })
        for field in extra.list { names.insert(field.name.canonicalName) }
        return specs.answerProblems(status: canned.status, headerNames: names, contentType: canned.headers[.contentType],
                                    body: canned.body, route: route)
            .map { "answer: \($0)" }
    }

    /// The answer with its template rendered, or a 500 when rendering passed `maxRenderedBytes`.
    private func rendered(_ job: DeferredRender) -> Outcome {
        let (rendered, notes) = job.template.render(job.canned, job.input, limit: maxRenderedBytes)
        guard let rendered else {
            let why = "the template rendered more than \(maxRenderedBytes) bytes, the cap (stubd serve --max-render BYTES, StubServer.Options.maxRenderedBytes)"
            return Outcome(answer: .generated(.problem(500, title: "Rendered answer too large",
                                                       detail: "\(why); raise the cap, or have the template loop over less")),
                           route: job.route, quota: job.quota, notes: notes + ["rendering stopped: " + why])
        }
        let outcome = Outcome(answer: .canned(rendered, extraHeaders: job.extraHeaders), route: job.route, quota: job.quota,
                              notes: notes.isEmpty ? nil : notes)
        // A template's answer can be held to the spec only now, once rendered.
        return outcome.reporting(answerProblems(outcome, of: job.route))
    }

    /// Charges the route's quotas for this answer: a `quotaStatus:` answer charges nothing, a sole
    /// fixed-key quota in a fixed window takes its shortcut (`SoleQuota`), anything else the general loop.
    /// `notModified`: the request will be answered 304, which a quota with `notModified: free` does not count.
    private func charge(_ route: Route, _ state: RouteState, _ response: CannedResponse, _ parameters: [String: String],
                        _ request: RequestHead, _ session: SessionState, _ wall: Date, notModified: Bool = false) -> Outcome {
        if response.quotaStatus != nil {
            // Asking how much is left is never counted against what is left (GitHub's rule too).
            return Outcome(answer: .generated(quotaStatus(response, request, parameters, session, wall)), route: route)
        }
        if let sole = state.soleQuota {
            if notModified, !sole.quota.countsNotModified { return Outcome(answer: .canned(response, extraHeaders: .none), route: route) }
            if let accepted = charge(route, response, sole, now: session.clock.now(wall: wall)) { return accepted }
        }
        let plans = route.quotaPlans
        guard !plans.isEmpty else { return Outcome(answer: .canned(response, extraHeaders: .none), route: route) }

        var headers = ExtraHeaders.none
        var notes = QuotaNote.Notes()
        for (i, plan) in plans.enumerated() {
            guard let key = plan.key(for: request, parameters: parameters, route: route) else {
                state.counter.outcomes.uncharged(by: plan.quota.name)
                continue
            }
            let quota = plan.quota
            if notModified, !quota.countsNotModified { continue }
            let now = session.clock.now(wall: wall)
            let ledger = state.ledgers[i]
            let charge: QuotaCharge
            if let cell = state.cells[i], key == plan.constantKey {
                charge = ledger.charge(cell, key: key, at: now)
            } else {
                do { charge = try ledger.charge(key: key, at: now) } catch { return keyCapReached(error, ledger, route) }
            }
            if !charge.accepted, let verdict = charge.verdict {
                state.counter.outcomes.refused(answer: route.responses.firstIndex { $0 === response }, by: quota.name,
                                               skipping: plans[(i + 1)...])
                return Outcome(answer: .generated(QuotaAnswers.rejection(verdict.answered(as: quota))), route: route,
                               quota: .exceeded(quota: quota.name, retryAfter: verdict.retryAfter, frozenClock: session.clock.isVirtual))
            }
            if charge.recovered { state.counter.outcomes.recovered(by: quota.name) }
            if let t = charge.tightest { notes.append(QuotaNote.Item(quota: quota, standing: t)) }
            headers = headers.adding(quota, charge.tightest, now: now)
        }
        return Outcome(answer: .canned(response, extraHeaders: headers), route: route, quota: notes.isEmpty ? nil : .used(notes))
    }

    /// A new key past its quota's `maxKeys`: a 503 that names the cap (a 429 would be a verdict on
    /// the key, which was never counted), and one log line while the quota stays at its cap.
    private func keyCapReached(_ error: QuotaKeyCapReached, _ ledger: QuotaLedger, _ route: Route) -> Outcome {
        if ledger.shouldNoticeCap() { notice?(error.description) }
        return Outcome(answer: .generated(.problem(503, title: "Too many quota keys", detail: error.description)),
                       route: route, notes: ["quota key refused: " + error.description])
    }

    /// A `quotaStatus:` answer: the session's quotas as they stand for the key this request carries.
    private func quotaStatus(_ response: CannedResponse, _ request: RequestHead, _ parameters: [String: String],
                             _ session: SessionState, _ wall: Date) -> GeneratedResponse {
        let now = session.clock.now(wall: wall)
        let body = QuotaAnswers.githubStatus(catalog.quotas, statuses: { quota in
            session.ledger(for: quota).statuses(of: quota.key.value(in: request, captured: [:], parameters), at: now)
        }, now: now)
        return GeneratedResponse(status: response.status, headers: response.headers, body: Data(body.serialized.utf8))
    }

    /// `charge` for a route whose only quota has a fixed key (see `SoleQuota`),
    /// when the request fits in a fixed window. Nil, with nothing counted against the quota, when it
    /// does not or the quota has other windows: the general path then decides.
    private func charge(_ route: Route, _ response: CannedResponse, _ sole: SoleQuota, now: Date) -> Outcome? {
        guard let tightest = sole.chargeIfRoom(at: now) else { return nil }
        return Outcome(answer: .canned(response, extraHeaders: .advertising(sole.quota, tightest, now: now)), route: route,
                       quota: .used(QuotaNote.Notes(QuotaNote.Item(quota: sole.quota, standing: tightest))))
    }

    // MARK: Forwarding

    /// Journals a request passed on to the real API, under the route `proxy`, with what became of it.
    package func journalForwarded(_ request: RequestHead, status: HTTPResponse.Status, note: String, in session: SessionState) {
        // A hit of the path it went to, as a stubbed one would be: `stubd hits` and hit waits see it.
        session.recordForwardedHit(request)
        journal(request, in: session, at: Date(), status: status, route: "proxy", misses: [], notes: [note])
    }

    /// Everything back to the start (`SessionRegistry.reset(_:)`).
    package func reset(_ session: SessionState) { sessions.reset(session) }

    /// How many named sessions the server holds.
    package var sessionCount: Int { sessions.count }
}
