import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// A request target in absolute form, `http://host:port/path`: what a client sends to the proxy
/// its `HTTP_PROXY` (or `curl -x`, `proxies=`) names. libmicrohttpd hands it over as the URL,
/// already without its query.
struct AbsoluteForm {
    /// `host:port`, as the client wrote it (credentials dropped).
    let authority: String
    /// The path on that host, `/` when the URL has none.
    let path: String

    init?(_ target: String) {
        // Every request passes here: an origin-form path (the usual case) costs one byte's look.
        guard let first = target.utf8.first, first | 0x20 == UInt8(ascii: "h") else { return nil }
        let lower = target.prefix(8).lowercased()
        let skip: Int
        if lower.hasPrefix("http://") { skip = 7 } else if lower.hasPrefix("https://") { skip = 8 } else { return nil }
        let rest = target.dropFirst(skip)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        self.authority = String(authority)
        path = slash == rest.endIndex ? "/" : String(rest[slash...])
    }

    /// The session a proxy user name carries (`HTTP_PROXY=http://SESSION@127.0.0.1:8080` sends
    /// `Proxy-Authorization: Basic base64(SESSION:)`), for clients that cannot add a header.
    static func proxySession(_ authorization: String?) -> String? {
        guard let authorization, authorization.count > 6, authorization.prefix(6).lowercased() == "basic " else { return nil }
        guard let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let text = String(data: decoded, encoding: .utf8) else { return nil }
        let user = String(text.prefix { $0 != ":" }).removingPercentEncoding ?? ""
        return user.isEmpty ? nil : user
    }

    /// The answer for a host no part of the folder serves: which host, and the two ways to serve it.
    static func notServed(_ authority: String) -> GeneratedResponse {
        let host = HostScope.normalize(authority)
        return .problem(502, title: "Host not stubbed",
                        detail: "stubd serves no stubs for \(host.prefix(253)): add a folder named \(host.prefix(253)) at the top of the Stubs folder (its files answer that host's paths), or start stubd with --as-host \(host.prefix(253)) to answer it from the folder's top level")
    }
}
