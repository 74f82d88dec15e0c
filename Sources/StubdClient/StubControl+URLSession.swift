public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension StubControl {
    /// Where stubd listens, as a proxy URL (`http://127.0.0.1:8080`): what `HTTP_PROXY` and
    /// `HTTPS_PROXY` take, for a client that cannot change its base URL (proxy mode).
    public var proxyURL: URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = baseURL.host ?? "127.0.0.1"
        components.port = baseURL.port
        return components.url!
    }

    /// The session this view of the server is (`…/__s/ID` in `baseURL`), nil for the default one.
    public var sessionID: String? {
        let parts = baseURL.path.split(separator: "/")
        guard let i = parts.firstIndex(of: "__s"), i + 1 < parts.count else { return nil }
        return String(parts[i + 1])
    }

    /// A configuration whose HTTP and HTTPS requests go to their real host names through stubd as
    /// a proxy (proxy mode), each carrying this session's `X-Stubd-Session` (stubd ends the TLS of
    /// a tunnel, so it sees the header inside HTTPS too). For code under test whose base URL is
    /// fixed (`https://api.example.com`). The CA must be trusted for HTTPS: in the system's store
    /// (`stubd ca trust`, a simulator's keychain), or per session with `StubdCertificateTrust` as
    /// the session's delegate on Apple platforms.
    ///
    /// Apple's URLSession honours `connectionProxyDictionary`; Linux's Foundation ignores it (measured:
    /// the request went straight to the real host), so on Linux give such code the base URL instead.
    public func urlSessionConfiguration(_ base: URLSessionConfiguration = .ephemeral) -> URLSessionConfiguration {
        let configuration = base
        let host = proxyURL.host ?? "127.0.0.1"
        let port = proxyURL.port ?? 80
        // The keys behind kCFNetworkProxiesHTTP*/HTTPS*, spelled out: the HTTPS ones are not exported on iOS.
        configuration.connectionProxyDictionary = [
            "HTTPEnable": 1, "HTTPProxy": host, "HTTPPort": port,
            "HTTPSEnable": 1, "HTTPSProxy": host, "HTTPSPort": port,
        ]
        if let sessionID {
            var headers = configuration.httpAdditionalHeaders ?? [:]
            headers["X-Stubd-Session"] = sessionID
            configuration.httpAdditionalHeaders = headers
        }
        return configuration
    }
}
