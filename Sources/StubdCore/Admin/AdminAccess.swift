import Foundation

/// Who may call the admin API (`/__stubd/`), checked before any call runs.
///
/// - **Host**: a web page can aim a browser at `127.0.0.1` through a DNS name it controls (DNS
///   rebinding), and the browser then sends that name as `Host`. Admin calls therefore need a
///   `Host` that is an IP address, `localhost` (or `*.localhost`), or a name allowed by
///   `--allow-host` (docker-compose's service name, say).
/// - **Token**: when set (`--admin-token` or `STUBD_ADMIN_TOKEN`), every admin call but `health`
///   must carry `Authorization: Bearer TOKEN`. A server that listens beyond loopback without a token
///   keeps its admin API closed, and says how to open it.
public struct AdminAccess: Sendable {
    public let token: String?
    /// Host names allowed besides loopback names and IP addresses, lower-cased.
    public let allowedHosts: Set<String>
    /// Whether the server listens on more than loopback.
    public let listensBeyondLoopback: Bool

    public init(token: String?, allowedHosts: [String] = [], listensBeyondLoopback: Bool) {
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.listensBeyondLoopback = listensBeyondLoopback
    }

    /// Nil when the call may go ahead; otherwise the answer that refuses it.
    public func refusal(call: String, host: String?, authorization: String?) -> GeneratedResponse? {
        if let host, !isAllowed(host: host) {
            let name = AdminAccess.hostName(host)
            return .problem(403, title: "Host not allowed",
                            detail: "admin calls answer only to Host 127.0.0.1, localhost or an IP address (DNS rebinding protection), "
                                + "not '\(name)'; to allow it, start stubd with --allow-host \(name)")
        }
        if call == "health" || call.isEmpty { return nil }
        guard let token else {
            guard listensBeyondLoopback else { return nil }
            return .problem(401, title: "Admin API closed",
                            detail: "this server listens beyond loopback and was given no admin token, so its admin API is closed; "
                                + "start it with --admin-token or STUBD_ADMIN_TOKEN, and give clients the same STUBD_ADMIN_TOKEN",
                            headers: [("WWW-Authenticate", "Bearer realm=\"stubd\"")])
        }
        guard let authorization, authorization.hasPrefix("Bearer "),
              AdminAccess.constantTimeEquals(String(authorization.dropFirst(7)), token) else {
            return .problem(401, title: "Admin token required",
                            detail: "admin calls need Authorization: Bearer TOKEN with the server's admin token; "
                                + "StubdClient and the test fixtures send STUBD_ADMIN_TOKEN from the environment",
                            headers: [("WWW-Authenticate", "Bearer realm=\"stubd\"")])
        }
        return nil
    }

    func isAllowed(host: String) -> Bool {
        let name = AdminAccess.hostName(host).lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") || allowedHosts.contains(name) { return true }
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }

    /// `example.com:8080` → `example.com`; `[::1]:8080` → `::1`.
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<end])
        }
        if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon { return String(host[..<colon]) }
        return host
    }

    /// Compares without stopping at the first difference, so timing tells nothing of the token.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }
}
