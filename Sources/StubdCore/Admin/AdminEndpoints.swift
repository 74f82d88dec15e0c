package import Foundation
package import HTTPTypes
package import StubdProtocol
package import Synchronization
package import StubdEngine

/// The admin API under `/__stubd/`: each call, typed as an `AdminEndpoint`, goes to its handler,
/// which reads or sets one session (the registry's) against the catalog the engine answers from.
/// Admin calls are never counted as hits nor subject to quotas, and the answer path never comes here.
package final class AdminEndpoints: Sendable {
    /// The answerer: its catalog, specs and change feed.
    package let engine: StubEngine
    /// The specs served beside the stubs, for `/__stubd/contract`, coverage and health; nil without one.
    package let contracts: ContractSet?
    /// The engine's sessions.
    package let sessions: SessionRegistry
    /// What the journal hides: credential headers and parameters, and `--secret` values.
    let journalMasking: JournalMasking
    /// Runtime stubs one session may hold: a bound on the memory one client can make a session hold.
    package let maxRuntimeStubs: Int
    private let nextStubID = Atomic<Int>(1)
    /// The folder fingerprint `/__stubd/health` reports, with the catalog generation it is of.
    let healthFingerprint = Locked<(generation: UInt64, fingerprint: StubsFingerprint)?>(nil)
    /// `serve --proxy` / `stubd record`: set once by the server before it serves, for `/__stubd/health`.
    package let forwarding = Locked<(mode: String, target: String, recording: Bool)?>(nil)
    /// Answers the recorder wrote since the server started.
    package let recordedCount = Atomic<Int>(0)

    package init(engine: StubEngine, contracts: ContractSet? = nil, maskedHeaders: [String] = [], maskedSecrets: [NamedSecret] = [],
                 maxRuntimeStubs: Int = 10_000) {
        self.engine = engine
        self.contracts = contracts
        self.sessions = engine.sessions
        self.journalMasking = JournalMasking(headers: maskedHeaders, secrets: maskedSecrets)
        self.maxRuntimeStubs = max(1, maxRuntimeStubs)
    }

    /// The catalog in force.
    var catalog: StubCatalog { engine.catalog }
    var contractRequests: String { engine.contractRequests }

    /// The answer to a path under `/__stubd/` that is no call: a 405 naming the methods it takes, or a 404 listing the calls.
    package static func noSuchCall(method: HTTPRequest.Method, call: String) -> GeneratedResponse {
        let takes = AdminEndpoint.methods(call: call)
        guard takes.isEmpty else {
            let names = takes.map(\.rawValue)
            return .problem(405, title: "Method not allowed",
                            detail: "/__stubd/\(call) takes \(names.joined(separator: ", ")), not \(method)",
                            headers: [.allow: names.joined(separator: ", ")])
        }
        return .problem(404, title: "No such admin call",
                        detail: "\(method) /__stubd/\(call) is not an admin call; calls: \(AdminEndpoint.listing)")
    }

    /// Answers a call under `/__stubd/`, parsed where the request entered the admin API (`AdminResponder`).
    package func answer(_ endpoint: AdminEndpoint, query: [QueryItem], body: Data, session: SessionState) -> AdminReply {
        func q(_ name: String) -> String? { query.first { $0.name == name }?.value ?? nil }
        switch endpoint {
        case .health:
            return .response(health())
        case .sessions:
            return .response(.document(200, SessionsReport(maxSessions: sessions.maxSessions, sessions: sessions.sessionList.map { s in
                SessionsReport.Session(id: s.id, requests: s.journal.total, unmatched: s.unmatched.load(ordering: .relaxed),
                                       runtimeStubs: s.runtimeStubCount, now: JournalEntry.timeFormat(s.clock.now()),
                                       frozen: s.clock.isVirtual)
            })))
        case .routes:
            return .response(.document(200, RoutesReport(routes: catalog.routes.map { describe($0) })))
        case .hits:
            guard let text = q("route") ?? q("path") else { return .response(hitsReport(session)) }
            let query: RouteQuery
            do { query = try RouteQuery(RouteReference(parsing: text)) } catch { return .response(badReference(error)) }
            if let unknown = unknownHitTarget(query, in: session) { return .response(unknown) }
            return .response(.document(200, HitCount(route: query.text, hits: session.hits(for: query))))
        case .waitForHits:
            guard let text = q("route") ?? q("path") else {
                return .response(.problem(400, title: "Missing route", detail: "hits/wait needs ?route=NAME_OR_PATTERN (or ?path=GET%20/concrete) and ?count=N"))
            }
            let query: RouteQuery
            do { query = try RouteQuery(RouteReference(parsing: text)) } catch { return .response(badReference(error)) }
            if let unknown = unknownHitTarget(query, in: session) { return .response(unknown) }
            guard let count = Int(q("count") ?? "1"), count >= 0 else {
                return .response(.problem(400, title: "Bad count", detail: "count must be a whole number ≥ 0, got '\(q("count") ?? "")'"))
            }
            guard let timeout = Double(q("timeout") ?? "2"), timeout >= 0, timeout <= 300 else {
                return .response(.problem(400, title: "Bad timeout", detail: "timeout is seconds between 0 and 300, got '\(q("timeout") ?? "")'"))
            }
            return .hold(waitForHits(session: session, query: query, count: count, timeout: timeout))
        case .contract:
            guard let contracts else {
                return .response(.problem(404, title: "No spec loaded",
                                          detail: "this server holds its stubs to no OpenAPI spec; start it with `stubd serve --spec FILE`"))
            }
            let check = StubContractCheck(catalog: catalog, contracts: contracts)
            let specs = zip(contracts.contracts, check.specNotices).map { contract, notices in
                ContractReport.Spec(file: contract.specName, openapi: contract.version, operations: contract.operations.map(\.signature),
                                    notices: notices)
            }
            var versions: [String] = []
            for contract in contracts.contracts where !versions.contains(contract.version) { versions.append(contract.version) }
            return .response(.document(200, ContractReport(file: contracts.names, openapi: versions.joined(separator: ", "),
                                                           operations: specs.flatMap(\.operations),
                                                           requests: contractRequests, notices: check.notices, specs: specs)))
        case .coverage:
            // Without a session: the whole server, every session since it started.
            return .response(.document(200, coverage(of: session)))
        case .requests:
            // A HAR is the whole journal unless told otherwise: a viewer wants the test's traffic, not its tail.
            let fallback = q("format") == nil ? 100 : session.journal.capacity
            let limit = q("limit").flatMap { Int($0) } ?? fallback
            let (entries, total) = session.journal.recent(limit: max(0, limit))
            if let format = q("format") {
                guard format == "har" else {
                    return .response(.problem(400, title: "Bad format", detail: "format is har (a HAR 1.2 file) or left out (the journal as JSON), got '\(format)'"))
                }
                return .response(GeneratedResponse(status: 200, headers: [.contentType: "application/json"],
                                                   body: JournalHAR(entries: entries, masking: journalMasking).data))
            }
            // A stream's messages are kept apart (they come after its entry is written), and joined to it here.
            // Each entry's secrets mask its stream's messages too.
            let maskers = entries.map { $0.secretMasker(masking: journalMasking) }
            var connectionMaskers: [Int: SecretMasker] = [:]
            for (entry, masker) in zip(entries, maskers) { if let connection = entry.connection { connectionMaskers[connection] = masker } }
            let messages = session.streamJournal.documents(of: connectionMaskers)
            let endpoints = catalog.graphQL
            return .response(.document(200, JournalReport(total: total, capacity: session.journal.capacity, requests: zip(entries, maskers).map { entry, masker in
                entry.document(masking: journalMasking, masker: masker, messages: entry.connection.flatMap { messages[$0] },
                               graphQL: endpoints.flatMap { graphQLCall(entry, $0) })
            })))
        case .reset:
            sessions.reset(session)
            return .response(.document(200, ResetDone(session: session.id)))
        case .resources:
            return .response(.document(200, resourcesReport(session)))
        case .resourceItems(let name), .replaceResourceItems(let name):
            return .response(resourceItems(method: endpoint.method, name: name, body: body, session: session))
        case .scenarios:
            return .response(.document(200, scenariosReport(session)))
        case .resetScenarios:
            session.scenarios.reset(settling: scenarioSteps(session), now: session.clock.now())
            return .response(.document(200, scenariosReport(session)))
        case .setScenario(let name):
            guard let set = try? adminRequest(ScenarioSet.self, body) else {
                return .response(.problem(400, title: "Bad scenario state", detail: #"send {"state": "paid"}, or {"state": "paid", "key": "17"} for a keyed scenario (GET /__stubd/scenarios lists each scenario's states)"#))
            }
            return .response(setScenario(name, to: set.state, key: set.key, in: session))
        case .scenario(let name):
            return .response(scenarioReport(name, session))
        case .runtimeStubs:
            return .response(.document(200, RuntimeStubsReport(stubs: session.runtimeStubs().map { describe($0.route, id: $0.id) })))
        case .addStub:
            func listed(_ problems: [LoadProblem]) -> String {
                problems.map { p in (p.line.map { "line \($0)" + (p.column.map { ", column \($0)" } ?? "") + ": " } ?? "")
                    + p.message + (p.hint.map { " (\($0))" } ?? "") }.joined(separator: "; ")
            }
            do throws(RuntimeStubRefusal) {
                let (id, route, problems) = try addRuntimeStub(json: String(decoding: body, as: UTF8.self), to: session)
                return .response(.document(201, StubAdded(id: id, route: route.signature, session: session.id,
                                                          contract: problems.isEmpty ? nil : problems.map(\.message))))
            } catch {
                switch error {
                case .invalid(let error):
                    return .response(.problem(400, title: "Bad stub", detail: listed(error.problems)))
                case .breaksContract(let problems):
                    return .response(.problem(422, title: "The stub does not keep to \(contracts?.names ?? "the spec")",
                                              detail: listed(problems),
                                              extra: ["contract": .array(problems.map { .string($0.message) })]))
                }
            }
        case .removeStub(let id):
            return session.removeRuntime(id: id)
                ? .response(GeneratedResponse(status: 204))
                : .response(.problem(404, title: "No such stub", detail: "no runtime stub '\(id)' in this session; GET /__stubd/stubs lists them"))
        case .quotas:
            guard let limit = Int(q("limit") ?? String(QuotasReport.defaultPageSize)), (1...QuotasReport.maxPageSize).contains(limit) else {
                return .response(.problem(400, title: "Bad limit",
                                          detail: "limit is the most keys a page lists, 1 to \(QuotasReport.maxPageSize), got '\(q("limit") ?? "")'"))
            }
            var cursor: QuotaPageCursor?
            if let text = q("cursor") {
                guard let parsed = QuotaPageCursor(text: text), catalog.quotas.contains(where: { $0.name == parsed.quota }) else {
                    return .response(.problem(400, title: "Bad cursor",
                                              detail: "cursor must be the 'next' of an earlier page of this catalog's quotas; start again without one"))
                }
                cursor = parsed
            }
            return .response(.document(200, quotasReport(session, limit: limit, after: cursor)))
        case .resetQuotas:
            session.resetQuotas()
            return .response(.document(200, quotasReport(session)))
        case .fillQuota(let name):
            return .response(prefill(session, quota: name, body: body))
        case .preference:
            return .response(.document(200, PreferDocument(prefer: session.preferredAnswer, session: session.id)))
        case .setPreference:
            guard let document = try? adminRequest(PreferDocument.self, body) else {
                return .response(.problem(400, title: "Bad preference",
                                          detail: #"send {"prefer": "code=429"} (a Prefer header value: code=STATUS, example=NAME, or both as "code=200, example=NAME"), or {"prefer": null} to stop"#))
            }
            if let value = document.prefer, value.isEmpty || value.count > 200 || value.contains(where: { $0.isNewline }) {
                return .response(.problem(400, title: "Bad preference", detail: "prefer must be a one-line header value of 1 to 200 characters"))
            }
            session.setPreferred(document.prefer)
            return .response(.document(200, PreferDocument(prefer: document.prefer, session: session.id)))
        case .clearPreference:
            session.setPreferred(nil)
            return .response(.document(200, PreferDocument(prefer: nil, session: session.id)))
        case .clock:
            return .response(.document(200, clockReport(session)))
        case .advanceClock:
            guard let move = try? adminRequest(ClockAdvance.self, body), move.seconds >= 0 else {
                return .response(.problem(400, title: "Bad clock move", detail: #"send {"seconds": 61} (a non-negative number)"#))
            }
            do { try session.clock.advance(by: move.seconds) } catch {
                return .response(.problem(400, title: "Bad clock move", detail: error.description))
            }
            session.sweepQuotas()
            return .response(.document(200, clockReport(session)))
        case .setClock:
            guard let set = try? adminRequest(ClockSet.self, body) else {
                return .response(.problem(400, title: "Bad clock time", detail: #"send {"time": "2016-08-30T00:00:00-04:00"} (RFC 3339)"#))
            }
            let date: Date
            do { date = try InternetDateTime(parsing: set.time).date } catch {
                return .response(.problem(400, title: "Bad clock time", detail: "time: " + error.description))
            }
            do { try session.clock.set(to: date) } catch {
                return .response(.problem(400, title: "Bad clock time", detail: error.description))
            }
            session.sweepQuotas()
            return .response(.document(200, clockReport(session)))
        case .waitForStream:
            return waitForStream(query: query, session: session)
        case .webSockets:
            return .response(.document(200, webSocketsReport(session)))
        case .webSocketMessages(let name):
            guard let after = Int(q("after") ?? "0"), after >= 0 else {
                return .response(.problem(400, title: "Bad after", detail: "after is the index of the last message already read, a whole number ≥ 0, got '\(q("after") ?? "")'"))
            }
            return .response(webSocketMessages(name, after: after, in: session))
        case .pushWebSocketMessage(let name):
            return .response(pushWebSocketMessage(name, body: body, in: session))
        case .events, .dashboard:
            // The transport's AdminResponder answers these before the engine is asked.
            return .response(.problem(404, title: "No such admin call", detail: "\(endpoint) is the dashboard's, answered by the server itself"))
        }
    }

    /// Adds a route given as manifest-shaped JSON; returns its id, and how its answers break the spec
    /// (`serve --spec`), which in strict mode refuses it instead (`RuntimeStubRefusal.breaksContract`).
    package func addRuntimeStub(json: String, to session: SessionState) throws(RuntimeStubRefusal)
        -> (id: String, route: Route, contractProblems: [LoadProblem]) {
        guard session.runtimeStubCount < maxRuntimeStubs else {
            throw .invalid(CatalogLoadError(root: "runtime stub", problems: [LoadProblem(
                file: "stub", message: "this session already holds \(maxRuntimeStubs) runtime stubs, the most it may",
                hint: "remove some (DELETE /__stubd/stubs/{id}), reset the session, or put them in the Stubs folder")]))
        }
        let number = nextStubID.add(1, ordering: .relaxed).oldValue
        let id = "s\(number)"
        let catalog = self.catalog
        let route: Route
        do throws(CatalogLoadError) { route = try catalog.parseRuntimeStub(json, id: id, index: -number) } catch { throw .invalid(error) }
        // Held to the spec as a file stub is; strict mode refuses it as a load refuses a file.
        let problems = contracts.map { StubContractCheck.problems(of: route, in: $0) } ?? []
        if !problems.isEmpty, contractRequests == "strict" { throw .breaksContract(problems) }
        if let taken = route.name.flatMap(catalog.route(named:)) ?? session.addRuntime(route, id: id) {
            throw .invalid(CatalogLoadError(root: "runtime stub", problems: [LoadProblem(
                file: "stub", message: "route name '\(route.name ?? "")' is already used by \(taken.source)",
                hint: "give the runtime stub its own name, or remove the other first")]))
        }
        return (id, route, problems)
    }

    // MARK: Pieces

    /// A request document, held to strict JSON first (Foundation's decoder lets a lone surrogate
    /// through, for one), as every other JSON stubd reads.
    func adminRequest<T: Decodable>(_ type: T.Type, _ body: Data) throws -> T {
        _ = try JSONParser.parse(body)
        return try AdminCoding.decode(type, from: body)
    }

    private func describe(_ route: Route, id: String? = nil) -> RouteDescription {
        RouteDescription(id: id, name: route.name, method: route.method.description,
                         pattern: route.signature.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "",
                         signature: route.signature, source: route.source.description, priority: route.priority,
                         responses: route.responses.count, quotas: route.quotas.isEmpty ? nil : route.quotas.map(\.name),
                         times: route.times, templated: route.responses.contains { $0.template != nil } ? true : nil,
                         faults: Self.faults(of: route))
    }

    /// The faults a route's answers carry, in order, once each; nil for none. `malformed_json` is a
    /// body, not a broken connection, and is left out.
    private static func faults(of route: Route) -> [String]? {
        var seen: [String] = []
        for fault in route.responses.compactMap(\.fault) where fault != .malformedJSON && !seen.contains(fault.rawValue) {
            seen.append(fault.rawValue)
        }
        return seen.isEmpty ? nil : seen
    }

    /// The health document, with the folder's fingerprint (read once per catalog: a reload makes a
    /// new one). The fingerprint is of the folder as it is on disk when first asked.
    private func health() -> GeneratedResponse {
        let catalog = self.catalog
        let fingerprint = healthFingerprint.withLock { cached -> StubsFingerprint? in
            if let cached = cached, cached.generation == catalog.generation { return cached.fingerprint }
            guard let fresh = StubsFingerprint.of(folder: catalog.root) else { return nil }
            cached = (catalog.generation, fresh)
            return fresh
        }
        let report = HealthReport(version: StubEngine.version, routes: catalog.routes.count,
                                  stubs: fingerprint.map { HealthReport.Stubs(folder: catalog.root.path, fingerprint: $0) },
                                  spec: contracts.map { HealthReport.Spec(file: $0.names, openapi: $0.contracts.map(\.version).joined(separator: ", "),
                                                                          operations: $0.contracts.reduce(0) { $0 + $1.operations.count }) },
                                  specs: contracts.map { $0.contracts.map { HealthReport.Spec(file: $0.specName, openapi: $0.version,
                                                                                              operations: $0.operations.count) } },
                                  forwarding: forwarding.withLock { $0 }.map {
                                      HealthReport.Forwarding(mode: $0.mode, target: $0.target, recording: $0.recording,
                                                              recorded: recordedCount.load(ordering: .relaxed))
                                  })
        return .document(200, report)
    }

    private func clockReport(_ session: SessionState) -> ClockReport {
        let now = session.clock.now()
        return ClockReport(now: JournalEntry.timeFormat(now), epoch: Int(now.timeIntervalSince1970.rounded(.down)),
                           frozen: session.clock.isVirtual, offsetSeconds: session.clock.offsetSeconds, session: session.id)
    }
}
