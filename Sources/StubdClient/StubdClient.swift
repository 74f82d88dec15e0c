import Foundation
// The documents it exchanges with the server (HealthReport, StubsFingerprint) come with it.
@_exported import StubdProtocol
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to a running stubd (`stubd serve`, docker-compose) over its admin API.
///
/// ```swift
/// let stubd = StubdClient(baseURL: URL(string: ProcessInfo.processInfo.environment["STUBD_URL"]!)!)
/// let mine = stubd.session(UUID().uuidString)   // isolated from other tests
/// try await mine.waitForHits("london", count: 1, timeout: .seconds(2))
/// ```
public struct StubdClient: StubControl {
    public let baseURL: URL
    /// Sent as `Authorization: Bearer …` on admin calls, for a server started with an admin token.
    public let adminToken: String?

    /// `adminToken` defaults to `STUBD_ADMIN_TOKEN` from the environment, as the server's does.
    public init(baseURL: URL, adminToken: String? = ProcessInfo.processInfo.environment["STUBD_ADMIN_TOKEN"]) {
        self.baseURL = baseURL
        self.adminToken = adminToken.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The server's root URL, without any session prefix.
    public var serverURL: URL {
        let path = baseURL.path
        guard let range = path.range(of: "/__s/") else { return baseURL }
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.path = String(path[..<range.lowerBound])
        return components.url!
    }

    public func session(_ id: String) -> any StubControl { sessionClient(id) }

    /// `session(_:)` with its concrete type, for callers that want `StubdClient`'s extra calls.
    public func sessionClient(_ id: String) -> StubdClient {
        StubdClient(baseURL: serverURL.appendingPathComponent("__s").appendingPathComponent(id), adminToken: adminToken)
    }

    /// The session id this client speaks for ("" for the default session).
    public var sessionID: String {
        let path = baseURL.path
        guard let range = path.range(of: "/__s/") else { return "" }
        return String(path[range.upperBound...].prefix { $0 != "/" })
    }

    // MARK: StubControl

    public func hits(_ route: String) async throws -> Int {
        let (status, json) = try await raw("GET", "hits", query: ["route": route])
        try Self.checkRouteKnown(route, status: status, json: json)
        guard status == 200 else { throw StubdError.rejected(call: "GET /__stubd/hits", status: status, detail: Self.detail(json)) }
        return (json["hits"] as? NSNumber)?.intValue ?? 0
    }

    /// A 404 "No such route" from a hit count: the name is wrong, not the count.
    private static func checkRouteKnown(_ route: String, status: Int, json: [String: Any]) throws {
        guard status == 404, json["title"] as? String == "No such route" else { return }
        throw StubdError.unknownRoute(route: route, nearest: json["nearest"] as? [String] ?? [])
    }

    public func waitForHits(_ route: String, count: Int, timeout: Duration) async throws -> Int {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let (status, json) = try await raw("GET", "hits/wait",
                                           query: ["route": route, "count": String(count), "timeout": String(seconds)],
                                           requestTimeout: seconds + 10)
        try Self.checkRouteKnown(route, status: status, json: json)
        let hits = (json["hits"] as? NSNumber)?.intValue ?? 0
        if status == 200 { return hits }
        guard status == 408 else { throw StubdError.rejected(call: "hits/wait", status: status, detail: Self.detail(json)) }
        let report = try await unmatchedReport()
        throw StubdError.waitTimedOut(route: route, expected: count, actual: hits, unmatched: report.count, nearest: report.nearest)
    }

    public func reset() async throws {
        _ = try await call("POST", "reset")
    }

    public func addStub(_ route: StubRoute) async throws -> String {
        let json = try await call("POST", "stubs", body: Data(route.manifestJSON.utf8))
        return json["id"] as? String ?? ""
    }

    public func removeStub(id: String) async throws {
        _ = try await call("DELETE", "stubs/\(id)")
    }

    public func setQuotaUsed(_ quota: String, key: String?, used: [String: Int]) async throws {
        var object: [String: Any] = ["used": used]
        if let key { object["key"] = key }
        _ = try await call("PUT", "quotas/\(quota)", body: try JSONSerialization.data(withJSONObject: object))
    }

    public func advanceClock(by duration: Duration) async throws {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        _ = try await call("POST", "clock/advance", body: try JSONSerialization.data(withJSONObject: ["seconds": seconds]))
    }

    // MARK: More

    /// Every route's hits in this session, by route name or signature.
    public func allHits() async throws -> [String: Int] {
        let json = try await call("GET", "hits")
        var result: [String: Int] = [:]
        for case let entry as [String: Any] in json["routes"] as? [Any] ?? [] {
            if let route = entry["route"] as? String { result[route] = (entry["hits"] as? NSNumber)?.intValue ?? 0 }
        }
        return result
    }

    /// How many requests matched nothing, and why the latest ones missed their nearest routes.
    public func unmatchedReport() async throws -> (count: Int, nearest: [String]) {
        let hits = try await call("GET", "hits")
        let count = (hits["unmatched"] as? NSNumber)?.intValue ?? 0
        guard count > 0 else { return (0, []) }
        let journal = try await call("GET", "requests", query: ["limit": "50"])
        var nearest: [String] = []
        for case let entry as [String: Any] in (journal["requests"] as? [Any] ?? []).reversed() {
            guard entry["route"] is NSNull || entry["route"] == nil,
                  let misses = entry["nearest"] as? [String], let first = misses.first else { continue }
            let request = "\(entry["method"] as? String ?? "") \(entry["path"] as? String ?? "")"
            nearest.append("\(request) vs \(first)")
        }
        return (count, nearest)
    }

    /// The server's health document: version, routes, and the folder it serves with its fingerprint;
    /// throws `unreachable` when nothing answers.
    public func health() async throws -> HealthReport {
        let (status, data) = try await fetch("GET", "health")
        guard (200..<300).contains(status) else {
            throw StubdError.rejected(call: "GET /__stubd/health", status: status, detail: String(decoding: data.prefix(200), as: UTF8.self))
        }
        do { return try JSONDecoder().decode(HealthReport.self, from: data) } catch {
            throw StubdError.badConfiguration("\(serverURL.absoluteString) answered /__stubd/health with something other than stubd's health document; is STUBD_URL pointing at stubd?")
        }
    }

    // MARK: HTTP

    private static let urlSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 32
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    private func call(_ method: String, _ path: String, query: [String: String] = [:], body: Data? = nil) async throws -> [String: Any] {
        let (status, json) = try await raw(method, path, query: query, body: body)
        guard (200..<300).contains(status) else {
            throw StubdError.rejected(call: "\(method) /__stubd/\(path)", status: status, detail: Self.detail(json))
        }
        return json
    }

    private func raw(_ method: String, _ path: String, query: [String: String] = [:], body: Data? = nil,
                     requestTimeout: Double = 10) async throws -> (Int, [String: Any]) {
        let (status, data) = try await fetch(method, path, query: query, body: body, requestTimeout: requestTimeout)
        let json = (data.isEmpty ? nil : try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, json)
    }

    private func fetch(_ method: String, _ path: String, query: [String: String] = [:], body: Data? = nil,
                       requestTimeout: Double = 10) async throws -> (Int, Data) {
        var components = URLComponents(url: baseURL.appendingPathComponent("__stubd").appendingPathComponent(path),
                                        resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.timeoutInterval = requestTimeout
        if let adminToken { request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await StubdClient.urlSession.data(for: request)
        } catch {
            throw StubdError.unreachable(url: serverURL.absoluteString, reason: error.localizedDescription)
        }
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    private static func detail(_ json: [String: Any]) -> String {
        json["detail"] as? String ?? json["title"] as? String ?? "no detail"
    }
}

extension StubdClient {
    /// Quota standing as table rows (quota, key, policy, used/limit, resets in), header first.
    public func quotaTable() async throws -> [[String]] {
        var rows = [["QUOTA", "KEY", "POLICY", "USED", "RESETS IN"]]
        let json = try await call("GET", "quotas")
        for case let quota as [String: Any] in json["quotas"] as? [Any] ?? [] {
            let name = quota["name"] as? String ?? ""
            for case let key as [String: Any] in quota["keys"] as? [Any] ?? [] {
                for case let limit as [String: Any] in key["limits"] as? [Any] ?? [] {
                    let used = (limit["used"] as? NSNumber)?.intValue ?? 0
                    let max = (limit["limit"] as? NSNumber)?.intValue ?? 0
                    let resets = (limit["resets_in"] as? NSNumber)?.intValue ?? 0
                    rows.append([name, (key["key"] as? String).map { $0.isEmpty ? "(global)" : $0 } ?? "",
                                 limit["policy"] as? String ?? "", "\(used)/\(max)", "\(resets)s"])
                }
            }
        }
        return rows
    }
}
