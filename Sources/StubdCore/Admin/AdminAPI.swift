import Foundation
import StubdProtocol

/// What an admin call needs from the transport: an answer now, or a long-poll for hits.
public enum AdminReply: Sendable {
    case response(GeneratedResponse)
    /// Hold the connection until `session` has `count` hits on `query`, or `timeout` seconds pass;
    /// then answer with `StubEngine.hitsWaitResult`.
    case waitForHits(session: SessionState, query: String, count: Int, timeout: Double)
}

/// Where a request goes: the admin API, or the stubs, within a session.
public struct RequestTarget: Sendable, Equatable {
    public let session: String
    /// The path with any `/__s/{id}` prefix removed.
    public let path: String
    /// The admin call (`hits/wait`) when the path is under `/__stubd/`.
    public let adminCall: String?

    /// `/__s/t1/api/x` → session t1, path /api/x. A session header counts when there is no prefix,
    /// and `sessionQuery` (`?session=`) only for an admin call with neither.
    public static func resolve(path: String, sessionHeader: String?, sessionQuery: @autoclosure () -> String?) -> RequestTarget {
        var session = sessionHeader ?? ""
        var rest = path
        if path.hasPrefix("/__s/") {
            let afterPrefix = path.dropFirst(5)
            let id = afterPrefix.prefix { $0 != "/" }
            session = String(id)
            rest = String(afterPrefix.dropFirst(id.count))
            if rest.isEmpty { rest = "/" }
        }
        if rest == "/__stubd" || rest.hasPrefix("/__stubd/") {
            // Looked up only here: a stub request does not pay for a query scan it never uses.
            if session.isEmpty, let q = sessionQuery() { session = q }
            let call = rest.dropFirst("/__stubd".count).drop { $0 == "/" }
            return RequestTarget(session: session, path: rest, adminCall: String(call))
        }
        return RequestTarget(session: session, path: rest, adminCall: nil)
    }

    /// Session ids appear in URLs and logs: keep them plain.
    public static func isValidSession(_ id: String) -> Bool {
        id.count <= 64 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
    }
}

extension StubEngine {
    /// Answers a call under `/__stubd/`. Admin calls are never counted as hits nor subject to quotas.
    public func admin(method: String, call: String, query: [(name: String, value: String?)], body: Data,
                      session: SessionState) -> AdminReply {
        func q(_ name: String) -> String? { query.first { $0.name == name }?.value ?? nil }
        let parts = call.split(separator: "/").map(String.init)
        switch (method, parts.first ?? "", parts.count) {
        case ("GET", "health", 1), ("HEAD", "health", 1):
            return .response(health())
        case ("GET", "routes", 1):
            return .response(.json(200, .object(["routes": .array(catalog.routes.map(describe))])))
        case ("GET", "hits", 1):
            return .response(hits(session, route: q("route"), path: q("path")))
        case ("GET", "hits", 2) where parts[1] == "wait":
            guard let target = q("route") ?? q("path") else {
                return .response(.problem(400, title: "Missing route", detail: "hits/wait needs ?route=NAME_OR_PATTERN (or ?path=GET%20/concrete) and ?count=N"))
            }
            if let unknown = unknownHitTarget(target, in: session) { return .response(unknown) }
            guard let count = Int(q("count") ?? "1"), count >= 0 else {
                return .response(.problem(400, title: "Bad count", detail: "count must be a whole number ≥ 0, got '\(q("count") ?? "")'"))
            }
            guard let timeout = Double(q("timeout") ?? "2"), timeout >= 0, timeout <= 300 else {
                return .response(.problem(400, title: "Bad timeout", detail: "timeout is seconds between 0 and 300, got '\(q("timeout") ?? "")'"))
            }
            return .waitForHits(session: session, query: target, count: count, timeout: timeout)
        case ("GET", "requests", 1):
            let limit = Int(q("limit") ?? "100") ?? 100
            let (entries, total) = session.journal.recent(limit: max(0, limit))
            return .response(.json(200, .object(["total": .number(Double(total)), "capacity": .number(Double(session.journal.capacity)),
                                                 "requests": .array(entries.map { $0.json(masking: maskedHeaders) })])))
        case ("POST", "reset", 1):
            reset(session)
            return .response(.json(200, .object(["reset": .bool(true), "session": .string(session.id)])))
        case ("GET", "stubs", 1):
            return .response(.json(200, .object(["stubs": .array(session.runtimeStubs().map { entry in
                var d = describe(entry.route)
                if case .object(var m) = d { m["id"] = .string(entry.id); d = .object(m) }
                return d
            })])))
        case ("POST", "stubs", 1):
            do {
                let (id, route) = try addRuntimeStub(json: String(decoding: body, as: UTF8.self), to: session)
                return .response(.json(201, .object(["id": .string(id), "route": .string(route.signature), "session": .string(session.id)])))
            } catch {
                return .response(.problem(400, title: "Bad stub", detail: error.problems.map { p in
                    (p.line.map { "line \($0): " } ?? "") + p.message + (p.hint.map { " (\($0))" } ?? "") }.joined(separator: "; ")))
            }
        case ("DELETE", "stubs", 2):
            return session.removeRuntime(id: parts[1])
                ? .response(GeneratedResponse(status: 204))
                : .response(.problem(404, title: "No such stub", detail: "no runtime stub '\(parts[1])' in this session; GET /__stubd/stubs lists them"))
        case ("GET", "quotas", 1):
            return .response(.json(200, quotasJSON(session)))
        case ("POST", "quotas", 2) where parts[1] == "reset":
            session.resetQuotas()
            return .response(.json(200, quotasJSON(session)))
        case ("PUT", "quotas", 2):
            return .response(prefill(session, quota: parts[1], body: body))
        case ("GET", "clock", 1):
            return .response(.json(200, clockJSON(session)))
        case ("POST", "clock", 2) where parts[1] == "advance":
            guard let json = try? JSONParser.parse(body), case .object(let m) = json, case .number(let seconds)? = m["seconds"], seconds >= 0 else {
                return .response(.problem(400, title: "Bad clock move", detail: #"send {"seconds": 61} (a non-negative number)"#))
            }
            do { try session.clock.advance(by: seconds) } catch {
                return .response(.problem(400, title: "Bad clock move", detail: error.description))
            }
            return .response(.json(200, clockJSON(session)))
        case ("POST", "clock", 2) where parts[1] == "set":
            guard let json = try? JSONParser.parse(body), case .object(let m) = json, case .string(let text)? = m["time"],
                  let date = ManifestParser.parseDate(text) else {
                return .response(.problem(400, title: "Bad clock time", detail: #"send {"time": "2016-08-30T00:00:00-04:00"} (ISO 8601)"#))
            }
            do { try session.clock.set(to: date) } catch {
                return .response(.problem(400, title: "Bad clock time", detail: error.description))
            }
            return .response(.json(200, clockJSON(session)))
        default:
            let known = "health, routes, hits, hits/wait, requests, reset, stubs, quotas, quotas/reset, quotas/{name}, clock, clock/advance, clock/set"
            return .response(.problem(404, title: "No such admin call",
                                      detail: "\(method) /__stubd/\(call) is not an admin call; calls: \(known)"))
        }
    }

    /// The answer to a finished long-poll: 200 when the count was reached, 408 with the count so far.
    public func hitsWaitResult(session: SessionState, query: String, count: Int) -> GeneratedResponse {
        let hits = session.hits(for: query)
        let body: JSONValue = .object(["route": .string(query), "hits": .number(Double(hits)), "expected": .number(Double(count)),
                                       "unmatched": .number(Double(session.unmatched.load(ordering: .relaxed)))])
        return .json(hits >= count ? 200 : 408, body)
    }

    /// Registers a long-poll; nil when the count is already reached (answer at once).
    public func waitForHits(session: SessionState, query: String, count: Int, fire: @escaping @Sendable () -> Void) -> Int? {
        session.waiters.add(query: query, count: count, current: { session.hits(for: query) }, fire: fire)
    }

    /// Drops a long-poll whose timeout came first. False when a hit fired it already.
    @discardableResult
    public func cancelWait(session: SessionState, id: Int) -> Bool { session.waiters.remove(id) }

    // MARK: Pieces

    private func hits(_ session: SessionState, route: String?, path: String?) -> GeneratedResponse {
        if let target = route ?? path {
            if let unknown = unknownHitTarget(target, in: session) { return unknown }
            return .json(200, .object(["route": .string(target), "hits": .number(Double(session.hits(for: target)))]))
        }
        let counts = session.routeCounts()
        let routes: [JSONValue] = catalog.routes.map { r in
            let n = counts[r.key] ?? 0
            return .object(["route": .string(r.key), "signature": .string(r.signature), "hits": .number(Double(n)),
                            "source": .string(r.source.description)])
        } + session.runtimeStubs().map { entry in
            .object(["route": .string(entry.route.key), "signature": .string(entry.route.signature),
                     "hits": .number(Double(session.counter(for: entry.route).count)), "source": .string(entry.route.source.description)])
        }
        let quotas = quotasJSON(session)
        return .json(200, .object([
            "session": .string(session.id), "routes": .array(routes),
            "paths": .object(session.allPathCounts().mapValues { .number(Double($0)) }),
            "unmatched": .number(Double(session.unmatched.load(ordering: .relaxed))),
            "quotas": { if case .object(let m) = quotas { return m["quotas"] ?? .array([]) } else { return .array([]) } }(),
        ]))
    }

    private func describe(_ route: Route) -> JSONValue {
        var m: [String: JSONValue] = [
            "method": .string(route.method.description), "pattern": .string(route.signature.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""),
            "signature": .string(route.signature), "source": .string(route.source.description),
            "priority": .number(Double(route.priority)), "responses": .number(Double(route.responses.count)),
        ]
        m["name"] = route.name.map { .string($0) } ?? .null
        if !route.quotas.isEmpty { m["quotas"] = .array(route.quotas.map { .string($0.name) }) }
        if let times = route.times { m["times"] = .number(Double(times)) }
        return .object(m)
    }

    private func quotasJSON(_ session: SessionState) -> JSONValue {
        let now = session.clock.now()
        let ledgers = session.existingLedgers()
        return .object(["session": .string(session.id), "now": .string(JournalEntry.timeFormat(now)),
                        "quotas": .array(catalog.quotas.map { quota in
            let keys = ledgers[quota.name]?.snapshot(at: now) ?? []
            return .object([
                "name": .string(quota.name), "algorithm": .string(quota.algorithm.rawValue),
                "key": .string(quota.key.description), "limits": .array(quota.limits.map { .string($0.description) }),
                "routes": .array(quota.selectors.map { .string($0.text) }),
                "keys": .array(keys.map { entry in .object(["key": .string(entry.key), "limits": .array(entry.statuses.map { s in
                    .object(["policy": .string(s.limit.name), "limit": .number(Double(s.limit.count)), "used": .number(Double(s.used)),
                             "remaining": .number(Double(s.remaining)), "resets_in": .number(Double(s.resetsIn))]) })]) }),
            ])
        })])
    }

    private func prefill(_ session: SessionState, quota name: String, body: Data) -> GeneratedResponse {
        guard let quota = catalog.quotas.first(where: { $0.name == name }) else {
            let names = catalog.quotas.map(\.name)
            return .problem(404, title: "No such quota", detail: "no quota named '\(name)'; quotas: " + (names.isEmpty ? "none" : names.joined(separator: ", ")))
        }
        guard let json = try? JSONParser.parse(body), case .object(let m) = json, case .object(let used)? = m["used"] else {
            return .problem(400, title: "Bad quota fill", detail: #"send {"key": "abc", "used": {"day": 500}}; policies of this quota: "# + quota.limits.map(\.name).joined(separator: ", "))
        }
        var counts: [String: Int] = [:]
        for (policy, value) in used {
            // Bounded before the conversion: `Int(1e19)` traps.
            guard case .number(let n) = value, n >= 0, n <= QuotaLimit.maxCount, n.rounded() == n else {
                return .problem(400, title: "Bad quota fill",
                                detail: "used.\(policy) must be a whole number from 0 to \(Int(QuotaLimit.maxCount)), got \(value.serialized)")
            }
            counts[policy] = Int(n)
        }
        var key = ""
        if case .string(let k)? = m["key"] { key = k }
        let unknown = session.ledger(for: quota).setUsed(key: key, used: counts, at: session.clock.now())
        guard unknown.isEmpty else {
            return .problem(400, title: "Unknown policy", detail: "quota '\(name)' has no policy \(unknown.joined(separator: ", ")); its policies: " + quota.limits.map(\.name).joined(separator: ", "))
        }
        return .json(200, quotasJSON(session))
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
                                  stubs: fingerprint.map { HealthReport.Stubs(folder: catalog.root.path, fingerprint: $0) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(report)) ?? Data(#"{"status":"ok"}"#.utf8)
        return GeneratedResponse(status: 200, headers: [("Content-Type", ContentType.json)], body: body)
    }

    private func clockJSON(_ session: SessionState) -> JSONValue {
        let now = session.clock.now()
        return .object(["now": .string(JournalEntry.timeFormat(now)), "epoch": .number(now.timeIntervalSince1970.rounded(.down)),
                        "virtual": .bool(session.clock.isVirtual), "session": .string(session.id)])
    }
}
