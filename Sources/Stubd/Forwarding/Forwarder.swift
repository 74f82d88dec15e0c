import CCurl
import Foundation
import StubdCore

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
        /// `--ca-file`: trust this CA bundle (PEM) for the target.
        var caFile: String?
        /// `--insecure`: do not verify the target's certificate.
        var insecure = false
    }

    enum Result: Sendable {
        case answered(status: Int, headers: [(name: String, value: String)], body: Data, tooLarge: Bool)
        /// Over `maxBodyBytes`: handed to the client as it came (`onStream`), not held; this many bytes in all.
        case streamed(status: Int, bytes: Int)
        /// 502: no connection (refused, DNS, TLS).
        case unreachable(String)
        /// 504: `--timeout` passed.
        case timedOut
    }

    let settings: Settings

    init(_ settings: Settings) {
        self.settings = settings
        _ = Forwarder.globalInit
    }

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// The target URL for a request's path and query.
    func url(path: String, query: [(name: String, value: String?)]) -> URL? {
        guard var components = URLComponents(url: settings.target, resolvingAgainstBaseURL: false) else { return nil }
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + path
        let items = query.filter { $0.name != "session" }.map { URLQueryItem(name: $0.name, value: $0.value) }
        components.queryItems = items.isEmpty ? nil : items
        return components.url
    }

    /// Hop-by-hop headers, and those libcurl sets for the new connection itself.
    static let notForwarded: Set<String> = ["host", "connection", "keep-alive", "content-length", "transfer-encoding",
                                            "accept-encoding", "te", "upgrade", "proxy-connection", "x-stubd-session", "expect"]

    /// `onStream` is called (once, from the transfer's thread) when the answer outgrows
    /// `maxBodyBytes`: the client gets it from then on as it arrives; `done` still comes at the end.
    func forward(method: String, path: String, query: [(name: String, value: String?)], headers: [(name: String, value: String)],
                 body: Data, onStream: @escaping @Sendable (_ status: Int, _ headers: [(name: String, value: String)], StreamedBody) -> Void,
                 done: @escaping @Sendable (Result) -> Void) {
        guard let url = url(path: path, query: query) else { return done(.unreachable("cannot build a URL for \(path)")) }
        let forwardedHeaders = headers.filter { !Forwarder.notForwarded.contains($0.name.lowercased()) }
        // A thread of its own, not a Dispatch queue: a transfer blocks for as long as the target takes,
        // and blocked Dispatch workers (two on two cores) would starve the server's timers (delays,
        // throttling) and Swift concurrency, which run on the same pool.
        let settings = self.settings
        let thread = Thread {
            done(Forwarder.perform(method: method, url: url, headers: forwardedHeaders, body: body, settings: settings, onStream: onStream))
        }
        thread.name = "stubd-forward"
        thread.start()
    }

    /// What one transfer collects, reached from libcurl's callbacks through their context pointer.
    private final class Transfer {
        var headers: [(name: String, value: String)] = []
        var body = Data()
        var tooLarge = false
        let maxBody: Int
        /// Set once the answer outgrew `maxBody` and went to the client as a stream.
        var stream: StreamedBody?
        var streamedBytes = 0
        var handle: UnsafeMutableRawPointer?
        let onStream: @Sendable (Int, [(name: String, value: String)], StreamedBody) -> Void
        init(maxBody: Int, onStream: @escaping @Sendable (Int, [(name: String, value: String)], StreamedBody) -> Void) {
            self.maxBody = maxBody
            self.onStream = onStream
        }
    }

    private static let onBody: shim_curl_data_callback = { data, size, count, context in
        let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
        let n = size * count
        guard let data else { return n }
        let bytes = UnsafeRawBufferPointer(start: data, count: n)
        if let stream = transfer.stream {
            transfer.streamedBytes += n
            return stream.append(bytes) ? n : 0 // 0: the client left, the transfer stops
        }
        transfer.body.append(bytes.bindMemory(to: UInt8.self))
        if transfer.body.count > transfer.maxBody, let handle = transfer.handle {
            // Too large to hold for recording: from here the client gets it as it comes.
            transfer.tooLarge = true
            let stream = StreamedBody()
            transfer.stream = stream
            transfer.streamedBytes = transfer.body.count
            transfer.body.withUnsafeBytes { _ = stream.append($0) }
            transfer.body = Data()
            transfer.onStream(shim_curl_status(handle), Forwarder.relayable(transfer.headers), stream)
        }
        return n
    }

    /// The headers that still describe a decoded body.
    static func relayable(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        headers.filter { !["content-encoding", "content-length", "transfer-encoding"].contains($0.name.lowercased()) }
    }

    private static let onHeader: shim_curl_data_callback = { data, size, count, context in
        let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
        let n = size * count
        guard let data else { return n }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: n), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            transfer.headers = [] // a new status line (after a 100 Continue): only the last answer's headers count
        } else if let colon = line.firstIndex(of: ":") {
            transfer.headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return n
    }

    private static func perform(method: String, url: URL, headers: [(name: String, value: String)], body: Data,
                                settings: Settings,
                                onStream: @escaping @Sendable (Int, [(name: String, value: String)], StreamedBody) -> Void) -> Result {
        guard let handle = curl_easy_init() else { return .unreachable("libcurl could not start a transfer") }
        let transfer = Transfer(maxBody: settings.maxBodyBytes, onStream: onStream)
        transfer.handle = handle
        let context = Unmanaged.passRetained(transfer)
        var list: UnsafeMutablePointer<curl_slist>?
        // In this order: libcurl may still read the header list and call back while it cleans up.
        defer {
            curl_easy_cleanup(handle)
            curl_slist_free_all(list)
            context.release()
        }
        for h in headers { list = curl_slist_append(list, "\(h.name): \(h.value)") }
        // Sent as given, or libcurl would add its own.
        list = curl_slist_append(list, "Expect:")

        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = url.absoluteString.withCString { urlText in
            method.withCString { methodText in
                errorBuffer.withUnsafeMutableBufferPointer { errors in
                    body.withUnsafeBytes { bodyBytes in
                        (settings.caFile ?? "").withCString { caFile in
                            _ = shim_curl_pointer(handle, CURLOPT_URL, urlText)
                            _ = shim_curl_pointer(handle, CURLOPT_CUSTOMREQUEST, methodText)
                            if method == "HEAD" { _ = shim_curl_long(handle, CURLOPT_NOBODY, 1) }
                            _ = shim_curl_pointer(handle, CURLOPT_HTTPHEADER, list)
                            if !body.isEmpty {
                                _ = shim_curl_pointer(handle, CURLOPT_POSTFIELDS, bodyBytes.baseAddress)
                                _ = shim_curl_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                            }
                            _ = shim_curl_long(handle, CURLOPT_FOLLOWLOCATION, 0)
                            _ = shim_curl_pointer(handle, CURLOPT_ACCEPT_ENCODING, "") // every encoding libcurl can decode
                            _ = shim_curl_long(handle, CURLOPT_TIMEOUT_MS, Int(settings.timeoutSeconds * 1000))
                            _ = shim_curl_long(handle, CURLOPT_NOSIGNAL, 1)
                            _ = shim_curl_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                            if settings.insecure {
                                _ = shim_curl_long(handle, CURLOPT_SSL_VERIFYPEER, 0)
                                _ = shim_curl_long(handle, CURLOPT_SSL_VERIFYHOST, 0)
                            } else if settings.caFile != nil {
                                _ = shim_curl_pointer(handle, CURLOPT_CAINFO, caFile)
                            }
                            _ = shim_curl_callback(handle, CURLOPT_WRITEFUNCTION, onBody)
                            _ = shim_curl_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque())
                            _ = shim_curl_callback(handle, CURLOPT_HEADERFUNCTION, onHeader)
                            _ = shim_curl_pointer(handle, CURLOPT_HEADERDATA, context.toOpaque())
                            let code = curl_easy_perform(handle)
                            // The buffer lives only inside this closure; cleanup must not write to it.
                            _ = shim_curl_pointer(handle, CURLOPT_ERRORBUFFER, nil)
                            return code
                        }
                    }
                }
            }
        }
        if let stream = transfer.stream {
            stream.finish(failed: code != CURLE_OK)
            return .streamed(status: shim_curl_status(handle), bytes: transfer.streamedBytes)
        }
        switch code {
        case CURLE_OK:
            // The body is decoded: its encoding and length no longer describe it.
            return .answered(status: shim_curl_status(handle), headers: Forwarder.relayable(transfer.headers), body: transfer.body,
                             tooLarge: transfer.tooLarge)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        default:
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .unreachable(detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
        }
    }

    func invalidate() {}
}
