import HTTPTypes
package import StubdProtocol
package import StubdEngine

extension AdminEndpoints {
    /// Coverage of the catalog in force: of one named session since its last reset, or (nil, or the
    /// default session) of the whole server since it started, every session added up.
    package func coverage(of session: SessionState?) -> CoverageReport {
        let catalog = self.catalog
        var tally: CoverageTally
        if let session, !session.id.isEmpty {
            tally = CoverageTally(session, catalog: catalog)
        } else {
            tally = sessions.retiredCoverage.withLock { $0 }
            for s in sessions.allSessions { tally.add(CoverageTally(s, catalog: catalog)) }
        }
        let name = session.flatMap { $0.id.isEmpty ? nil : $0.id }
        let routes = catalog.routes.map { describeCoverage($0, tally[$0.key]) }
        return CoverageReport(session: name, routes: routes,
                              operations: contracts.map { Self.operationCoverage($0, catalog.routes, routes) },
                              scenarios: ScenarioCoverage.report(catalog, tally.scenarios))
    }

    /// With a spec: each operation (of every spec, in their order), the statuses it documents, and
    /// which of them an answer of a route that answers for it (`ContractSet.owner(of:)`, as
    /// `check --spec` pairs them) had. An answer the client never saw a status of (a fault, a hang)
    /// answers nothing. Two specs never declare one operation (`ContractSet`), so a signature is one operation.
    static func operationCoverage(_ contracts: ContractSet, _ catalogRoutes: [Route],
                                  _ reported: [CoverageReport.Route]) -> [CoverageReport.Operation] {
        var byOperation: [String: [CoverageReport.Route]] = [:]
        for (route, report) in zip(catalogRoutes, reported) {
            guard let (operation, _) = contracts.owner(of: route) else { continue }
            byOperation[operation.signature, default: []].append(report)
        }
        return contracts.contracts.flatMap(\.operations).map { operation in
            let routes = byOperation[operation.signature] ?? []
            let documented = operation.responses.compactMap { Int($0.status) }
            var answered = Set<Int>()
            for route in routes {
                for item in route.items where item.isCovered {
                    let unseen = (item.behaviours ?? []).contains { $0.hasPrefix("fault") || $0 == "hang" }
                    if let status = item.status, !unseen { answered.insert(status) }
                }
            }
            let hints = documented.filter { !answered.contains($0) }.map { status -> CoverageReport.Operation.Hint in
                for route in routes {
                    if let item = route.items.first(where: { $0.status == status }) {
                        return .init(status: status, hint: "route \(route.route) has it as its \(item.title): \(item.hint)")
                    }
                }
                return .init(status: status, hint: "no stub answers \(status) for it: add one (`stubd openapi import` writes a route per documented "
                                 + "status, chosen with `Prefer: code=\(status)`), or add a runtime stub in the test's session")
            }
            return CoverageReport.Operation(operation: operation.signature, documented: documented, answered: answered.sorted(),
                                            state: CoverageReport.Operation.state(documented: documented, answered: answered.sorted()),
                                            routes: routes.map(\.route), hints: hints)
        }
    }

    private func describeCoverage(_ route: Route, _ tally: CoverageTally.RouteTally?) -> CoverageReport.Route {
        let count = route.responses.count
        var items = route.responses.enumerated().map { i, response -> CoverageReport.Item in
            let behaviours = Self.behaviours(of: response)
            let what = ([String(response.status.code)] + behaviours).joined(separator: ", ")
            let title = count == 1 ? "answer (\(what))" : "answer \(i + 1) of \(count) (\(what))"
            return CoverageReport.Item(kind: .answer, id: "answer \(i + 1)", title: title, step: i + 1, status: response.status.code,
                                       behaviours: behaviours.isEmpty ? nil : behaviours,
                                       hits: i < (tally?.answers.count ?? 0) ? tally!.answers[i] : 0,
                                       hint: Self.answerHint(route, step: i + 1))
        }
        items += Self.streamItems(route, tally)
        // A route whose every answer is a `quotaStatus:` one is never charged: no quota state to reach.
        if route.responses.contains(where: { $0.quotaStatus == nil }) {
            for quota in route.quotas {
                let q = tally?.quotas[quota.name] ?? CoverageTally.QuotaTally()
                items += Self.quotaItems(quota, q)
            }
        }
        return CoverageReport.Route(route: route.key, signature: route.signature, source: route.source.description,
                                    hits: tally?.hits ?? 0, items: items)
    }

    /// A WebSocket script's replies, each an item a client message reaches; an event stream's run to its end.
    private static func streamItems(_ route: Route, _ tally: CoverageTally.RouteTally?) -> [CoverageReport.Item] {
        let path = route.signature.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
        var items: [CoverageReport.Item] = []
        if let script = route.responses.lazy.compactMap(\.webSocket).first {
            for (i, reply) in script.replies.enumerated() {
                items.append(CoverageReport.Item(kind: .reply, id: "reply \(i + 1)", title: "WebSocket reply \(i + 1) (\(reply.match.summary))",
                                                 hits: tally?.replies[i] ?? 0,
                                                 hint: "have the app send a message matching \(reply.match.summary) on \(path)"
                                                     + (i == 0 ? "" : " that no earlier reply matches")))
            }
        }
        if let stream = route.responses.lazy.compactMap(\.events).first {
            let count = stream.sendable(from: 0)
            let ending = stream.ending.sentEvents == nil ? "ran to its end" : "reached its ending"
            items.append(CoverageReport.Item(kind: .events, id: "events", title: "every event sent (\(count) events, the stream \(ending))",
                                             hits: tally?.streamsEnded ?? 0,
                                             hint: "read \(path) until the stream ends (on a virtual clock, advance it past the last event's delay)",
                                             events: count, eventsSent: tally?.furthestEvent ?? 0))
        }
        return items
    }

    static func behaviours(of response: CannedResponse) -> [String] {
        var found: [String] = []
        if let delay = response.delay { found.append("delay \(delay)") }
        if let fault = response.fault { found.append(fault == .hang ? "hang" : "fault \(fault.rawValue)") }
        if let rate = response.bytesPerSecond { found.append("throttle \(rate) B/s") }
        return found
    }

    private static func answerHint(_ route: Route, step: Int) -> String {
        let request = "\(route.method == .any ? "GET" : route.method.description) \(route.signature.split(separator: " ", maxSplits: 1).last ?? "")"
        let count = route.responses.count
        if count == 1 { return "send \(request)" }
        let order = route.cycle ? "answers take turns" : "answers come in order, the last repeating"
        return "send \(request) \(step) time\(step == 1 ? "" : "s") in one session (\(order); a session reset starts over)"
    }

    private static func quotaItems(_ quota: QuotaDefinition, _ tally: CoverageTally.QuotaTally) -> [CoverageReport.Item] {
        let name = quota.name
        // The limit that runs out first: the fewest requests.
        let tightest = quota.limits.min { $0.count < $1.count }
        let window = tightest.map { limit in
            limit.multiple == 1 ? "\(limit.unit == .hour ? "an" : "a") \(limit.unit.rawValue)" : "\(limit.multiple) \(limit.unit.rawValue)s"
        } ?? "its window"
        let refusal = refusalStatus(quota)
        let fill = "set `used` with `PUT /__stubd/quotas/\(name)`" + (tightest.map { #" {"key": …, "used": {"\#($0.name)": \#($0.count)}}"# } ?? "")
        let exhaust = tightest.map { "send \($0.count + 1) requests within \(window)" } ?? "use up its limits"
        let seconds = tightest?.windowSeconds ?? 60
        return [
            CoverageReport.Item(kind: .underLimit, id: "quota \(name) under-limit", title: "answer under the limits of quota `\(name)`",
                                quota: name, hits: tally.underLimit,
                                hint: "send one request while quota `\(name)` has room (\(quota.limits.map(\.description).joined(separator: ", ")))"),
            CoverageReport.Item(kind: .exceeded, id: "quota \(name) exceeded", title: "\(refusal) of quota `\(name)`", status: refusal,
                                quota: name, hits: tally.exceeded, hint: "\(exhaust), or \(fill), then send one"),
            CoverageReport.Item(kind: .resetByClock, id: "quota \(name) reset-by-clock",
                                title: "answer after quota `\(name)` was reset by the clock", quota: name, hits: tally.resetByClock,
                                hint: #"after its \#(refusal), move the clock past the window (`POST /__stubd/clock/advance` {"seconds": \#(seconds)}) and send one more"#),
        ]
    }

    /// The status a refusal of `quota` carries: 429, or what its profile answers (GitHub 403, Weather Underground 200).
    static func refusalStatus(_ quota: QuotaDefinition) -> Int {
        switch quota.exceeded {
        case .profile(.ietf), .profile(.openweathermap): return 429
        case .profile(.github): return 403
        case .profile(.wunderground): return 200
        case .custom(let status, _, _, _): return status.code
        }
    }
}
