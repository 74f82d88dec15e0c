import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdCore

/// Sends a request on to the real API (`stubd record`, `stubd serve --proxy`) and hands back what
/// it answered. Foundation's URLSession does the HTTP and TLS (libcurl underneath on Linux), off
/// libmicrohttpd's threads: the connection waits suspended, no worker is held.
///
/// Redirects are not followed (the client gets the 3xx, as from the API itself); gzip is undone.
final class Forwarder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Settings: Sendable {
        /// `https://api.example.com` (a path prefix is kept: `https://host/v2` forwards `/x` to `/v2/x`).
        var target: URL
        var timeoutSeconds: Double = 30
        /// Bodies larger than this are passed to the client but never written.
        var maxBodyBytes: Int = 10 << 20
        /// `--ca-file`: trust this CA bundle for the target.
        var caFile: String?
        /// `--insecure`: do not verify the target's certificate.
        var insecure = false
    }

    enum Result: Sendable {
        case answered(status: Int, headers: [(name: String, value: String)], body: Data, tooLarge: Bool)
        /// 502: no connection (refused, DNS, TLS).
        case unreachable(String)
        /// 504: `--timeout` passed.
        case timedOut
    }

    let settings: Settings
    private var session: URLSession!
    private let tasks = Locked<[Int: Pending]>([:])

    private final class Pending: @unchecked Sendable {
        var response: HTTPURLResponse?
        var body = Data()
        var tooLarge = false
        let done: @Sendable (Result) -> Void
        init(_ done: @escaping @Sendable (Result) -> Void) { self.done = done }
    }

    init(_ settings: Settings) {
        self.settings = settings
        super.init()
        Forwarder.configureTrust(settings)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = settings.timeoutSeconds
        configuration.timeoutIntervalForResource = settings.timeoutSeconds
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    /// On Linux, corelibs' URLSession reads its CA bundle (or "no verification") from this variable
    /// for each transfer; there is no trust callback there. Darwin asks the delegate instead.
    private static func configureTrust(_ settings: Settings) {
        #if canImport(FoundationNetworking)
        if settings.insecure { setenv("URLSessionCertificateAuthorityInfoFile", "INSECURE_SSL_NO_VERIFY", 1) }
        else if let file = settings.caFile { setenv("URLSessionCertificateAuthorityInfoFile", file, 1) }
        #endif
    }

    /// The target URL for a request's path and query.
    func url(path: String, query: [(name: String, value: String?)]) -> URL? {
        guard var components = URLComponents(url: settings.target, resolvingAgainstBaseURL: false) else { return nil }
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + path
        let items = query.filter { $0.name != "session" }.map { URLQueryItem(name: $0.name, value: $0.value) }
        components.queryItems = items.isEmpty ? nil : items
        return components.url
    }

    func forward(method: String, path: String, query: [(name: String, value: String?)], headers: [(name: String, value: String)],
                 body: Data, done: @escaping @Sendable (Result) -> Void) {
        guard let url = url(path: path, query: query) else { return done(.unreachable("cannot build a URL for \(path)")) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for h in headers where !Forwarder.notForwarded.contains(h.name.lowercased()) {
            request.addValue(h.value, forHTTPHeaderField: h.name)
        }
        if !body.isEmpty { request.httpBody = body }
        let task = session.dataTask(with: request)
        tasks.withLock { $0[task.taskIdentifier] = Pending(done) }
        task.resume()
    }

    /// Hop-by-hop headers, and those the client library sets for the new connection itself.
    static let notForwarded: Set<String> = ["host", "connection", "keep-alive", "content-length", "transfer-encoding",
                                            "accept-encoding", "te", "upgrade", "proxy-connection", "x-stubd-session"]

    // MARK: URLSession's calls

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        tasks.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        tasks.withLock { table in
            guard let pending = table[dataTask.taskIdentifier] else { return }
            pending.body.append(data)
            if pending.body.count > settings.maxBodyBytes { pending.tooLarge = true }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    #if !canImport(FoundationNetworking)
    func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        if settings.insecure, let trust = challenge.protectionSpace.serverTrust {
            completionHandler(.useCredential, URLCredential(trust: trust))
        } else {
            completionHandler(.performDefaultHandling, nil)
        }
    }
    #endif

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let pending = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error = error as? URLError {
            if error.code == .timedOut { return pending.done(.timedOut) }
            return pending.done(.unreachable(error.localizedDescription))
        } else if let error {
            return pending.done(.unreachable("\(error)"))
        }
        guard let response = pending.response else { return pending.done(.unreachable("no HTTP answer")) }
        var headers: [(name: String, value: String)] = []
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            headers.append((name, value))
        }
        headers.sort { $0.name.lowercased() < $1.name.lowercased() }
        pending.done(.answered(status: response.statusCode, headers: headers, body: pending.body, tooLarge: pending.tooLarge))
    }

    func invalidate() { session.invalidateAndCancel() }
}
