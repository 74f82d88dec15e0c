import CCurl
import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// Sends a request on to the real API (`stubd record`, `stubd serve --proxy`) and hands back what
/// it answered. libcurl does the HTTP and TLS, because it can be told what to trust: Foundation's
/// URLSession on Linux has no way to take `--ca-file` or `--insecure`. Each forward runs on a
/// thread of its own while the client's connection waits suspended, so no libmicrohttpd worker is held. Redirects are not followed (the client gets the 3xx, as from the API itself);
/// compressed answers are decoded.
final class Forwarder: Sendable {
    struct Settings: Sendable {
        /// `https://api.example.com` (a path prefix is kept: `https://host/v2` forwards `/x` to `/v2/x`).
        var target: URL
        var timeoutSeconds: Double = 30
        /// Bodies larger than this are passed to the client but never written.
        var maxBodyBytes: Int = 10 << 20
        /// `--max-decoded`: no answer body (after decompression) goes past this many bytes.
        var maxDecodedBytes: Int = ForwardingOptions.defaultMaxDecodedBytes
        /// A connection's memory for the request's head and the answer's headers together
        /// (`StubServer.Options.connectionMemoryBytes`): libmicrohttpd closes a connection whose
        /// answer's headers do not fit, without a word, so a forward that would not fit is refused.
        var connectionMemoryBytes: Int = 16 * 1024
        /// `--ca-file`: trust this CA bundle (PEM) for the target.
        var caFile: String?
        /// `--insecure`: do not verify the target's certificate.
        var insecure = false
        /// `--upstream-proxy`: the proxy forwards go through. Nil goes direct, whatever `http_proxy`,
        /// `https_proxy` or `ALL_PROXY` say (they may well name stubd itself).
        var upstreamProxy: URL?
        /// This server's own addresses and `Via` token, so a forward never reaches stubd itself.
        var loop: ForwardingLoop?
        /// With no `upstreamProxy`: take `http_proxy` and the like from the environment (`stubd drift`,
        /// which serves nothing that could loop), rather than go direct.
        var environmentProxies = false
        /// An event stream goes to the client as it comes, each piece as soon as the API sends it,
        /// while it is still held for recording (`stubd record`, `serve --proxy`); `stubd drift`,
        /// which has no client, holds it whole.
        var relaysEventStreams = false
    }

    enum Result: Sendable {
        /// Held whole: within `maxBodyBytes` (a larger answer streams). `arrivals`: when the pieces
        /// of an event stream's body came (empty for any other answer).
        case answered(status: Int, headers: HTTPFields, body: Data, arrivals: [BodyArrival])
        /// Over `maxBodyBytes`: handed to the client as it came (`onStream`), not held; this many bytes in all,
        /// and why it was cut short if it was (the client sees a body that breaks off).
        case streamed(status: Int, bytes: Int, cut: String?)
        /// An event stream (`relaysEventStreams`) handed to the client as it came (`onStream`) and
        /// held whole too, within `maxBodyBytes`: to be recorded, not answered again.
        case relayed(status: Int, headers: HTTPFields, body: Data, arrivals: [BodyArrival])
        /// 502: the answer cannot be passed on (`detail` says why and what to do); nothing reached the client.
        case refused(title: String, detail: String)
        /// 502: no connection (refused, DNS, TLS).
        case unreachable(String)
        /// 504: `--timeout` passed.
        case timedOut
        /// 508: the forward would have reached this server itself (`ForwardingLoop`); why.
        case loop(String)
    }

    let settings: Settings

    init(_ settings: Settings) {
        self.settings = settings
        _ = Forwarder.globalInit
    }

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// The target URL for a request's path and query.
    func url(path: String, query: [QueryItem]) -> URL? {
        guard var components = URLComponents(url: settings.target, resolvingAgainstBaseURL: false) else { return nil }
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + path
        let items = query.filter { $0.name != "session" }.map { URLQueryItem(name: $0.name, value: $0.value) }
        components.queryItems = items.isEmpty ? nil : items
        return components.url
    }

    /// Besides the hop-by-hop headers: those libcurl sets for the new connection itself, and stubd's own.
    static let notForwarded: Set<String> = ["host", "content-length", "accept-encoding", "x-stubd-session", "expect"]

    /// `onStream` is called (once, from the transfer's thread) when the answer outgrows
    /// `maxBodyBytes`: the client gets it from then on as it arrives; `done` still comes at the end.
    func forward(method: HTTPRequest.Method, path: String, query: [QueryItem], headers: HTTPFields,
                 body: Data, onStream: @escaping @Sendable (_ status: Int, _ headers: HTTPFields, StreamedBody) -> Void,
                 done: @escaping @Sendable (Result) -> Void) {
        guard let url = url(path: path, query: query) else { return done(.unreachable("cannot build a URL for \(path)")) }
        let leftOut = HopByHopHeaders.leftOut(of: headers, also: Forwarder.notForwarded)
        let kept = HTTPFields(headers.filter { !leftOut.contains($0.name.canonicalName) })
        let forwardedHeaders = settings.loop.map { $0.stamped(kept) } ?? kept
        let headerRoom = settings.connectionMemoryBytes - Forwarder.requestHeadCost(method: method, path: path, query: query, headers: headers)
        // A thread of its own, not a Dispatch queue: a transfer blocks for as long as the target takes,
        // and blocked Dispatch workers (two on two cores) would starve the server's timers (delays,
        // throttling) and Swift concurrency, which run on the same pool.
        let settings = self.settings
        NamedThread.start("stubd-forward") {
            let transfer = ForwardTransfer(settings: settings, headerRoom: headerRoom, onStream: onStream)
            done(transfer.run(method: method, url: url, headers: forwardedHeaders, body: body))
        }
    }

    /// What a request's head takes of its connection's memory while the answer's headers are
    /// written: its bytes, libmicrohttpd's record of each header, cookies twice (it parses them
    /// into the same memory), and room for the status line and the headers it adds itself
    /// (Date, Content-Length or chunked, Connection). Measured on 0.9.75 with 16 KiB: an answer
    /// whose headers took 15.5 KB got through after a 100-byte request head and 7 KB after an
    /// 8 KB one; 16 KB and 8 KB did not.
    static func requestHeadCost(method: HTTPRequest.Method, path: String, query: [QueryItem], headers: HTTPFields) -> Int {
        let perHeader = 64
        var cost = 512 + method.rawValue.utf8.count + path.utf8.count + 12
        for item in query { cost += item.name.utf8.count + (item.value?.utf8.count ?? 0) + 2 }
        for h in headers {
            cost += h.name.rawName.utf8.count + h.value.utf8.count + 4 + perHeader
            if h.name == .cookie {
                cost += h.value.utf8.count + perHeader * h.value.split(separator: ";").count
            }
        }
        return cost
    }

    /// The headers that still describe a decoded body.
    static func relayable(_ headers: HTTPFields) -> HTTPFields {
        HTTPFields(headers.filter { $0.name != .contentEncoding && $0.name != .contentLength && $0.name != .transferEncoding })
    }
}
