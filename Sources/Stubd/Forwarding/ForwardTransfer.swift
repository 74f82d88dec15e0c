import CCurl
import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

/// One forward's libcurl transfer, on the forwarder's thread: what it collects (through the
/// callbacks' context pointer) and the loop that drives it.
///
/// The loop is libcurl's multi interface rather than `curl_easy_perform`, because a transfer paused
/// for a slow client (`CURL_WRITEFUNC_PAUSE`) may only be unpaused from the thread driving it: the
/// client's side wakes this loop (`curl_multi_wakeup`, safe from any thread) and the loop unpauses.
final class ForwardTransfer {
    private let settings: Forwarder.Settings
    /// Bytes the answer's relayed headers may take (see `Forwarder.requestHeadCost`).
    private let headerRoom: Int
    private let onStream: @Sendable (Int, HTTPFields, StreamedBody) -> Void

    private var headers = HTTPFields()
    private var headerBytes = 0
    private var body = Data()
    /// When the answer's status line came, and, for an event stream, when each piece of its body did:
    /// a recording replays the events with the API's timing.
    private var headAt = DispatchTime.now().uptimeNanoseconds
    private var arrivals: [BodyArrival] = []
    private var timesArrivals: Bool?
    /// Every body byte taken so far, after decoding (held, then streamed).
    private var decodedBytes = 0
    /// Set once the answer outgrew `maxBodyBytes` and went to the client as a stream.
    private var stream: StreamedBody?
    /// An event stream relayed as it comes (`relaysEventStreams`) whose bytes are also kept in
    /// `body` for recording, until they pass `maxBodyBytes`.
    private var holdsStreamCopy = false
    private var paused = false
    /// Why the answer is refused before anything reached the client (a 502).
    private var refusal: (title: String, detail: String)?
    /// Why a stream was stopped short.
    private var cut: String?
    private var timedOut = false
    /// Why the transfer would have reached this server itself (`ForwardingLoop`).
    private var loop: String?
    /// When the target last sent body bytes that were taken (or the transfer was last unpaused).
    private var lastProgress = DispatchTime.now().uptimeNanoseconds
    private var handle: UnsafeMutableRawPointer?
    private var multi: MultiHandle?

    /// `curl_multi_wakeup` is safe from any thread; the handle outlives every wake-up (`finish` detaches it first).
    private struct MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        func wake() { _ = curl_multi_wakeup(pointer) }
    }

    init(settings: Forwarder.Settings, headerRoom: Int,
         onStream: @escaping @Sendable (Int, HTTPFields, StreamedBody) -> Void) {
        self.settings = settings
        self.headerRoom = headerRoom
        self.onStream = onStream
    }

    private static let onBody: shim_curl_data_callback = { data, size, count, context in
        Unmanaged<ForwardTransfer>.fromOpaque(context!).takeUnretainedValue().take(data, size * count)
    }

    private static let onHeader: shim_curl_data_callback = { data, size, count, context in
        Unmanaged<ForwardTransfer>.fromOpaque(context!).takeUnretainedValue().takeHeader(data, size * count)
    }

    /// The write callback: n to take the bytes, 0 to stop the transfer, CURL_WRITEFUNC_PAUSE to have them again later.
    private func take(_ data: UnsafeMutablePointer<CChar>?, _ n: Int) -> Int {
        guard let data else { return n }
        let bytes = UnsafeRawBufferPointer(start: data, count: n)
        if decodedBytes + n > settings.maxDecodedBytes {
            let limit = "the answer's body passed \(settings.maxDecodedBytes) bytes (--max-decoded; after decompression)"
            if stream != nil { cut = "cut at \(decodedBytes) bytes: \(limit)" } else {
                refusal = ("Answer too large", "\(limit); raise --max-decoded if the API really sends that much")
            }
            return 0
        }
        if let stream {
            switch stream.append(bytes) {
            case .taken:
                // Only bytes the client took: a paused transfer hands the same bytes again.
                if holdsStreamCopy {
                    if body.count + n > settings.maxBodyBytes {
                        holdsStreamCopy = false
                        body = Data()
                        arrivals = []
                    } else {
                        body.append(bytes.bindMemory(to: UInt8.self))
                    }
                }
            case .full:
                paused = true
                return shim_curl_write_pause()
            case .abandoned:
                cut = "the client left"
                return 0
            }
        } else {
            body.append(bytes.bindMemory(to: UInt8.self))
        }
        decodedBytes += n
        lastProgress = DispatchTime.now().uptimeNanoseconds
        if timesArrivals == nil { timesArrivals = RecordedEventStream.isEventStream(headers.firstValue(of: .contentType)) }
        if timesArrivals == true, stream == nil || holdsStreamCopy {
            arrivals.append(BodyArrival(end: decodedBytes, at: .nanoseconds(Int64(lastProgress - headAt))))
        }
        if stream == nil, timesArrivals == true, settings.relaysEventStreams, body.count <= settings.maxBodyBytes, let handle, let multi {
            // An event stream's client wants each event as it comes, not when the API has finished:
            // it gets the stream from its first bytes on, and a copy is kept for recording.
            let stream = StreamedBody(initial: body, wakeWriter: { multi.wake() })
            self.stream = stream
            holdsStreamCopy = true
            onStream(shim_curl_status(handle), Forwarder.relayable(headers), stream)
            return n
        }
        if stream == nil, body.count > settings.maxBodyBytes, let handle, let multi {
            // Too large to hold for recording: from here the client gets it as it comes.
            let stream = StreamedBody(initial: body, wakeWriter: { multi.wake() })
            self.stream = stream
            body = Data()
            onStream(shim_curl_status(handle), Forwarder.relayable(headers), stream)
        }
        return n
    }

    /// Opens each socket libcurl connects on, after refusing an address that is this server's own:
    /// whatever spelling the target, the proxy or a name's resolution used, this is the address.
    private static let onOpenSocket: curl_opensocket_callback = { context, _, address in
        guard let address else { return shim_curl_socket_bad() }
        let transfer = Unmanaged<ForwardTransfer>.fromOpaque(context!).takeUnretainedValue()
        let socketAddress = UnsafeRawPointer(address).advanced(by: MemoryLayout<curl_sockaddr>.offset(of: \.addr)!)
            .assumingMemoryBound(to: sockaddr.self)
        if let loop = transfer.settings.loop, loop.reachesThisServer(socketAddress) {
            transfer.loop = "\(describeAddress(socketAddress)) port \(ForwardingLoop.port(of: socketAddress)) is where this stubd listens"
            return shim_curl_socket_bad()
        }
        return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
    }

    private func takeHeader(_ data: UnsafeMutablePointer<CChar>?, _ n: Int) -> Int {
        guard let data else { return n }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: n), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            headers = HTTPFields() // a new status line (after a 100 Continue): only the last answer's headers count
            headerBytes = 0
            headAt = DispatchTime.now().uptimeNanoseconds
        } else if let colon = line.firstIndex(of: ":") {
            // A name that is not an HTTP token could not be passed on, nor recorded: left out.
            guard let name = HTTPField.Name(String(line[..<colon])) else { return n }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == .via, let loop = settings.loop, value.contains(loop.token) {
                // This server's own answer, come back through some other proxy: not the API's.
                self.loop = "the answer came back through this stubd (Via: \(value.prefix(200)))"
                return 0
            }
            headers.append(HTTPField(name: name, value: value))
            if !RequestRouter.notRelayed.contains(name.canonicalName), !HopByHopHeaders.names.contains(name.canonicalName) { headerBytes += name.rawName.utf8.count + value.utf8.count + 4 }
            if headerBytes > headerRoom {
                refusal = ("Answer headers too large",
                           "its headers passed \(max(headerRoom, 0)) bytes, all this request leaves of a connection's \(settings.connectionMemoryBytes) "
                           + "bytes for a request's head and an answer's headers; a shorter request head (fewer or smaller cookies) leaves more")
                return 0
            }
        }
        return n
    }

    func run(method: HTTPRequest.Method, url: URL, headers requestHeaders: HTTPFields, body requestBody: Data) -> Forwarder.Result {
        guard let handle = curl_easy_init() else { return .unreachable("libcurl could not start a transfer") }
        guard let multiPointer = curl_multi_init() else {
            curl_easy_cleanup(handle)
            return .unreachable("libcurl could not start a transfer")
        }
        self.handle = handle
        multi = MultiHandle(pointer: multiPointer)
        let context = Unmanaged.passRetained(self)
        var list: UnsafeMutablePointer<curl_slist>?
        // In this order: libcurl may still read the header list and call back while it cleans up.
        // (The client's side can no longer wake the multi handle: a stream is finished before this.)
        defer {
            curl_multi_remove_handle(multiPointer, handle)
            curl_multi_cleanup(multiPointer)
            curl_easy_cleanup(handle)
            curl_slist_free_all(list)
            context.release()
        }
        for h in requestHeaders { list = curl_slist_append(list, "\(h.name.rawName): \(h.value)") }
        // Sent as given, or libcurl would add its own.
        list = curl_slist_append(list, "Expect:")

        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode? = url.absoluteString.withCString { urlText in
            method.rawValue.withCString { methodText in
                errorBuffer.withUnsafeMutableBufferPointer { errors in
                    requestBody.withUnsafeBytes { bodyBytes in
                        (settings.caFile ?? "").withCString { caFile in
                            _ = shim_curl_pointer(handle, CURLOPT_URL, urlText)
                            _ = shim_curl_pointer(handle, CURLOPT_CUSTOMREQUEST, methodText)
                            if method == .head { _ = shim_curl_long(handle, CURLOPT_NOBODY, 1) }
                            _ = shim_curl_pointer(handle, CURLOPT_HTTPHEADER, list)
                            if !requestBody.isEmpty {
                                _ = shim_curl_pointer(handle, CURLOPT_POSTFIELDS, bodyBytes.baseAddress)
                                _ = shim_curl_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(requestBody.count))
                            }
                            _ = shim_curl_long(handle, CURLOPT_FOLLOWLOCATION, 0)
                            _ = shim_curl_pointer(handle, CURLOPT_ACCEPT_ENCODING, "") // every encoding libcurl can decode
                            // No CURLOPT_TIMEOUT_MS: it would count the time paused for a slow client too (`drive` keeps the time).
                            _ = shim_curl_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(settings.timeoutSeconds * 1000))
                            _ = shim_curl_long(handle, CURLOPT_NOSIGNAL, 1)
                            // "" goes direct: libcurl would otherwise take http_proxy, https_proxy or
                            // ALL_PROXY from the environment, and they may name stubd itself.
                            if let proxy = settings.upstreamProxy {
                                _ = shim_curl_pointer(handle, CURLOPT_PROXY, proxy.absoluteString)
                            } else if !settings.environmentProxies {
                                _ = shim_curl_pointer(handle, CURLOPT_PROXY, "")
                            }
                            _ = shim_curl_opensocket(handle, ForwardTransfer.onOpenSocket, context.toOpaque())
                            _ = shim_curl_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                            if settings.insecure {
                                _ = shim_curl_long(handle, CURLOPT_SSL_VERIFYPEER, 0)
                                _ = shim_curl_long(handle, CURLOPT_SSL_VERIFYHOST, 0)
                            } else if settings.caFile != nil {
                                _ = shim_curl_pointer(handle, CURLOPT_CAINFO, caFile)
                            }
                            _ = shim_curl_callback(handle, CURLOPT_WRITEFUNCTION, ForwardTransfer.onBody)
                            _ = shim_curl_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque())
                            _ = shim_curl_callback(handle, CURLOPT_HEADERFUNCTION, ForwardTransfer.onHeader)
                            _ = shim_curl_pointer(handle, CURLOPT_HEADERDATA, context.toOpaque())
                            let code = drive(multiPointer, handle)
                            // The buffer lives only inside this closure; cleanup must not write to it.
                            _ = shim_curl_pointer(handle, CURLOPT_ERRORBUFFER, nil)
                            return code
                        }
                    }
                }
            }
        }
        let status = shim_curl_status(handle)
        if let stream {
            if cut == nil, let code, code != CURLE_OK { cut = String(cString: curl_easy_strerror(code)) }
            if cut == nil, code == nil { cut = "stopped" }
            stream.finish(failed: cut != nil)
            if holdsStreamCopy, cut == nil {
                return .relayed(status: status, headers: Forwarder.relayable(headers), body: body, arrivals: arrivals)
            }
            return .streamed(status: status, bytes: decodedBytes, cut: cut)
        }
        if let loop { return .loop(loop) }
        if let refusal { return .refused(title: refusal.title, detail: refusal.detail) }
        if timedOut { return .timedOut }
        switch code {
        case CURLE_OK?:
            // The body is decoded: its encoding and length no longer describe it.
            return .answered(status: status, headers: Forwarder.relayable(headers), body: body, arrivals: arrivals)
        case CURLE_OPERATION_TIMEDOUT?:
            return .timedOut
        default:
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .unreachable(detail.isEmpty ? String(cString: curl_easy_strerror(code ?? CURLE_ABORTED_BY_CALLBACK)) : detail)
        }
    }

    /// Runs the transfer to its end; nil when it was stopped here (timed out, the client left, the
    /// target went quiet mid-stream). Until the answer streams, `--timeout` bounds the whole
    /// exchange; once it streams, the client sets the pace, and `--timeout` is how long the target
    /// may send nothing while the client waits for more.
    private func drive(_ multi: UnsafeMutableRawPointer, _ handle: UnsafeMutableRawPointer) -> CURLcode? {
        guard curl_multi_add_handle(multi, handle) == CURLM_OK else { return CURLE_FAILED_INIT }
        let timeout = UInt64(settings.timeoutSeconds * 1e9)
        let deadline = DispatchTime.now().uptimeNanoseconds + timeout
        var running: Int32 = 1
        while true {
            _ = curl_multi_perform(multi, &running)
            if running == 0 {
                var result = CURLE_OK
                return shim_curl_multi_done(multi, handle, &result) == 1 ? result : CURLE_OK
            }
            let now = DispatchTime.now().uptimeNanoseconds
            var waitMilliseconds: UInt64 = 1000
            if let stream {
                if stream.isAbandoned {
                    cut = "the client left"
                    return nil
                }
                if paused {
                    if stream.hasRoom {
                        paused = false
                        lastProgress = now
                        _ = shim_curl_unpause(handle) // may call the write callback, and pause again, before it returns
                        continue
                    }
                } else if now - lastProgress >= timeout {
                    cut = "the target sent nothing for \(Int(settings.timeoutSeconds)) s (--timeout)"
                    return nil
                }
            } else {
                if now >= deadline {
                    timedOut = true
                    return nil
                }
                waitMilliseconds = min(waitMilliseconds, (deadline - now) / 1_000_000 + 1)
            }
            // Back at once when the target sends or the client's side wakes it; at least once a second to check the clock.
            _ = curl_multi_poll(multi, nil, 0, Int32(waitMilliseconds), nil)
        }
    }
}
