import Foundation
package import HTTPTypes
package import StubdProtocol
package import StubdEngine

/// Who may call the admin API (`/__stubd/`), checked before any call runs.
///
/// - **Host**: a web page can aim a browser at `127.0.0.1` through a DNS name it controls (DNS
///   rebinding), and the browser then sends that name as `Host`. Admin calls therefore need a
///   `Host` that is an IP address, `localhost` (or `*.localhost`), or a name allowed by
///   `--allow-host` (docker-compose's service name, say).
/// - **Token**: when set (`--admin-token` or `STUBD_ADMIN_TOKEN`), every admin call but `health`
///   must carry `Authorization: Bearer TOKEN`. A server that listens beyond loopback without a token
///   keeps its admin API closed, and says how to open it.
/// - **Cross-site writes**: any page a developer has open may POST to `127.0.0.1` as a "simple"
///   request (`text/plain`, no preflight) and add stubs or reset state. A write (POST, PUT, PATCH,
///   DELETE) whose `Origin` is not the server's own, or that the browser marks
///   `Sec-Fetch-Site: cross-site`, is refused; and POST, PUT and PATCH must say
///   `Content-Type: application/json`, which no page can send to another origin without the
///   browser asking first (a CORS preflight stubd never approves). Tests, scripts and curl send no
///   `Origin`; StubdClient sends JSON.
/// - **The dashboard** (`/__stubd/ui`, `/__stubd/events`) goes through the same checks. A browser
///   cannot put a Bearer token on a page it navigates to, so the token is also taken as the password
///   of HTTP Basic authentication (any user name): the page answers 401 with a Basic challenge, the
///   browser asks once, and sends the token with every call the page makes.
package struct AdminAccess: Sendable {
    package let token: String?
    /// Host names allowed besides loopback names and IP addresses, lower-cased.
    package let allowedHosts: Set<String>
    /// Whether the server listens on more than loopback.
    package let listensBeyondLoopback: Bool

    package init(token: String?, allowedHosts: [String] = [], listensBeyondLoopback: Bool) {
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.listensBeyondLoopback = listensBeyondLoopback
    }

    /// Nil when the call may go ahead; otherwise the answer that refuses it. `endpoint` is `call`
    /// as the request makes it (nil when it is no call: the 404 or 405 still needs the token).
    package func refusal(method: HTTPRequest.Method, endpoint: AdminEndpoint?, call: String, headers: HTTPFields) -> GeneratedResponse? {
        let host = headers.firstValue(ofCanonicalName: "host")
        if let host, !isAllowed(host: host) {
            let name = AdminAccess.hostName(host)
            return .problem(403, title: "Host not allowed",
                            detail: "admin calls answer only to Host 127.0.0.1, localhost or an IP address (DNS rebinding protection), "
                                + "not '\(name)'; to allow it, start stubd with --allow-host \(name)")
        }
        // `/health` is open whatever the method (a POST is answered with its 405, not a 401).
        if call.isEmpty || endpoint == .health || (endpoint == nil && AdminEndpoint(method: .get, call: call) == .health) { return nil }
        let writes = ![.get, .head, .options].contains(method)
        if writes, let crossSite = AdminAccess.crossSiteRefusal(host: host, headers: headers) { return crossSite }
        if let closed = tokenRefusal(authorization: headers.firstValue(of: .authorization), browser: AdminAccess.isDashboard(endpoint)) {
            return closed
        }
        if writes, method != .delete, let type = AdminAccess.contentTypeRefusal(method: method, headers.firstValue(of: .contentType)) {
            return type
        }
        return nil
    }

    /// The calls a browser navigates to: their 401 asks for the token as a Basic password.
    static func isDashboard(_ endpoint: AdminEndpoint?) -> Bool {
        switch endpoint {
        case .events?, .dashboard?: true
        default: false
        }
    }

    private func tokenRefusal(authorization: String?, browser: Bool) -> GeneratedResponse? {
        guard let token else {
            guard listensBeyondLoopback else { return nil }
            return .problem(401, title: "Admin API closed",
                            detail: "this server listens beyond loopback and was given no admin token, so its admin API is closed; "
                                + "start it with --admin-token or STUBD_ADMIN_TOKEN, and give clients the same STUBD_ADMIN_TOKEN",
                            headers: [.wwwAuthenticate: "Bearer realm=\"stubd\""])
        }
        // No Basic challenge for an API call: a browser that met one would ask for a password there too.
        let challenge = browser ? "Basic realm=\"stubd admin token\", charset=\"UTF-8\"" : "Bearer realm=\"stubd\""
        guard let authorization, let given = AdminAccess.presentedToken(authorization),
              AdminAccess.constantTimeEquals(given, token) else {
            return .problem(401, title: "Admin token required",
                            detail: "admin calls need Authorization: Bearer TOKEN with the server's admin token; "
                                + "StubdClient and the test fixtures send STUBD_ADMIN_TOKEN from the environment; "
                                + "in a browser, give the token as the password (any user name)",
                            headers: [.wwwAuthenticate: challenge])
        }
        return nil
    }

    /// The token of `Bearer TOKEN`, or the password of `Basic base64(user:TOKEN)`.
    static func presentedToken(_ authorization: String) -> String? {
        if authorization.hasPrefix("Bearer ") { return String(authorization.dropFirst(7)) }
        guard authorization.count > 6, authorization.prefix(6).lowercased() == "basic ",
              let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":") else { return nil }
        return String(pair[pair.index(after: colon)...])
    }

    /// A write that a browser sent from another site's page.
    static func crossSiteRefusal(host: String?, headers: HTTPFields) -> GeneratedResponse? {
        let advice = "a web page may not change stubd's state; make admin calls from tests, scripts or curl (they send no Origin)"
        if headers.firstValue(ofCanonicalName: "sec-fetch-site")?.lowercased() == "cross-site" {
            return .problem(403, title: "Cross-site admin call",
                            detail: "the browser marks this admin call Sec-Fetch-Site: cross-site: " + advice)
        }
        guard let origin = headers.firstValue(of: .origin) else { return nil }
        if let host, isOwnOrigin(origin, host: host) { return nil }
        let own = host.map { "http://\($0)" } ?? "this server's address"
        return .problem(403, title: "Cross-site admin call",
                        detail: "this admin call comes from a page at Origin '\(origin)', not from stubd's own (\(own)): " + advice)
    }

    /// `http://127.0.0.1:8080` is the own origin of `Host: 127.0.0.1:8080`; a port left out is the scheme's.
    static func isOwnOrigin(_ origin: String, host: String) -> Bool {
        guard let separator = origin.range(of: "://") else { return false } // `null`: a sandboxed page or a file
        let scheme = origin[..<separator.lowerBound].lowercased()
        let defaultPort = scheme == "https" ? "443" : "80"
        func withPort(_ authority: some StringProtocol) -> String {
            let a = authority.lowercased()
            let hasPort = a.hasPrefix("[") ? a.contains("]:") : a.contains(":")
            return hasPort ? a : a + ":" + defaultPort
        }
        return withPort(origin[separator.upperBound...]) == withPort(host)
    }

    /// A POST, PUT or PATCH that does not say it is JSON: what an HTML form or a `text/plain` fetch sends.
    static func contentTypeRefusal(method: HTTPRequest.Method, _ contentType: String?) -> GeneratedResponse? {
        let type = contentType.map { $0.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased() }
        if type == "application/json" { return nil }
        return .problem(415, title: "Admin writes take JSON",
                        detail: "\(method) admin calls need Content-Type: application/json, even with no body (this one has "
                            + (contentType.map { "'\($0)'" } ?? "none") + "), so that no web page can send one unasked; "
                            + "with curl ≥ 7.82: --json '{…}', or -H 'Content-Type: application/json'")
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
