package import Foundation
package import HTTPTypes
package import StubdEngine

/// One `log.entries[]` item of a HAR 1.2 file, read into what a recorded exchange holds. Reading
/// is strict where a wrong guess would write a wrong stub (a URL, a status, base64 that is not) and
/// lenient elsewhere: tools add their own keys (`_resourceType`, `_initiator`, `_webSocketMessages`).
package struct HAREntry: Sendable {
    /// Its place in `log.entries`, from 0: problems and the table name it.
    package let index: Int
    package let method: HTTPRequest.Method
    package let scheme: String
    /// Lower-case, without the port.
    package let hostName: String
    package let port: Int?
    /// Percent-decoded, without the query.
    package let path: String
    package let query: [QueryItem]
    package let requestHeaders: HTTPFields
    package let requestBody: Data
    package let status: Int
    package let responseHeaders: HTTPFields
    /// Decoded: HAR keeps `content.text` after Content-Encoding was undone (base64 for binary bodies).
    package let responseBody: Data
    /// `content.mimeType`: the Content-Type when the headers lost it.
    package let mimeType: String
    /// `response.redirectURL`, which some tools fill without a `Location` header.
    package let redirectURL: String
    /// `timings.wait`: what the server took between the request sent and the first byte back.
    package let waitMilliseconds: Double?
    /// Why this entry cannot become a stub, though the file is sound (a request the browser never
    /// sent, an answer whose body the tool did not keep), or nil.
    package let leftOut: String?

    /// `host` or `host:port` when the port is not the scheme's own: the name `--host` picks.
    package var host: String {
        guard let port, port != (scheme == "https" ? 443 : 80) else { return hostName }
        return hostName.contains(":") ? "[\(hostName)]:\(port)" : "\(hostName):\(port)"
    }

    /// Reads `json`, the entry at `/log/entries/INDEX`; throws naming the pointer and what was expected.
    package init(_ json: JSONValue, index: Int) throws(ImportError) {
        self.index = index
        let at = "/log/entries/\(index)"
        guard case .object(let entry) = json else { throw ImportError("\(at): an entry must be an object") }
        guard case .object(let request)? = entry["request"] else { throw ImportError("\(at)/request: missing (each entry needs a request)") }
        guard case .object(let response)? = entry["response"] else { throw ImportError("\(at)/response: missing (each entry needs a response)") }

        guard case .string(let methodText)? = request["method"], let method = HTTPRequest.Method(methodText) else {
            throw ImportError("\(at)/request/method: missing or not an HTTP method")
        }
        self.method = method
        guard case .string(let url)? = request["url"] else { throw ImportError("\(at)/request/url: missing") }
        let parsed = try HAREntry.parseURL(url, at: "\(at)/request/url")
        (scheme, hostName, port, path, query) = parsed

        requestHeaders = try HAREntry.headers(request["headers"], at: "\(at)/request/headers")
        var body = Data()
        if case .object(let postData)? = request["postData"] {
            if case .string(let text)? = postData["text"] {
                body = Data(text.utf8)
            } else if case .array(let params)? = postData["params"] {
                // A form kept as its fields only (HAR allows text or params): sent as the browser would.
                body = Data(params.compactMap { param -> String? in
                    guard case .object(let p) = param, case .string(let name)? = p["name"] else { return nil }
                    let value: String = if case .string(let v)? = p["value"] { v } else { "" }
                    return HAREntry.formEncoded(name) + "=" + HAREntry.formEncoded(value)
                }.joined(separator: "&").utf8)
            }
        }
        requestBody = body

        guard case .number(let statusNumber)? = response["status"], statusNumber == statusNumber.rounded() else {
            throw ImportError("\(at)/response/status: missing or not a number")
        }
        status = Int(statusNumber)
        responseHeaders = try HAREntry.headers(response["headers"], at: "\(at)/response/headers")
        if case .string(let redirect)? = response["redirectURL"] { redirectURL = redirect } else { redirectURL = "" }
        if case .object(let timings)? = entry["timings"], case .number(let wait)? = timings["wait"], wait >= 0 {
            waitMilliseconds = wait
        } else {
            waitMilliseconds = nil
        }

        var content = Data()
        var leftOut: String?
        var mimeType = ""
        let contentAt = "\(at)/response/content"
        if case .object(let c)? = response["content"] {
            if case .string(let m)? = c["mimeType"] { mimeType = m }
            if case .string(let text)? = c["text"] {
                if case .string(let encoding)? = c["encoding"], !encoding.isEmpty {
                    guard encoding.lowercased() == "base64" else {
                        throw ImportError("\(contentAt)/encoding: '\(encoding.prefix(40))' is not an encoding HAR knows (base64, or none for text)")
                    }
                    // Whitespace is tolerated (some tools wrap the text); anything else is not base64.
                    guard let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters),
                          text.allSatisfy({ $0.isWhitespace || $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || "+/=".contains($0) })
                    else {
                        throw ImportError("\(contentAt)/text: says encoding base64 but is not base64 (\(text.prefix(24).debugDescription)…); fix or re-export the HAR")
                    }
                    content = bytes
                } else {
                    content = Data(text.utf8)
                }
            } else if case .number(let size)? = c["size"], size > 0 {
                leftOut = "the HAR holds no body for it (content.size \(Int(size))): export with content"
            }
        }
        responseBody = content
        self.mimeType = mimeType
        if status <= 0 {
            // Requests blocked, cancelled or failed before any answer: Chrome writes 0, Playwright -1
            // with its reason in `_failureText` (`net::ERR_CONNECTION_REFUSED`).
            let reason: String = if case .string(let text)? = response["_failureText"] { ": " + text.prefix(80) } else { "" }
            leftOut = "no answer (status \(status): the request failed or was blocked\(reason))"
        } else if !(100...599).contains(status) {
            throw ImportError("\(at)/response/status: \(status) is not an HTTP status")
        } else if method == .connect {
            leftOut = "a CONNECT (the tunnel, not a request)"
        } else if case .array(let messages)? = entry["_webSocketMessages"], !messages.isEmpty {
            leftOut = "a WebSocket (stubd serves HTTP answers)"
        } else if HAREntry.stillCompressed(content, headers: responseHeaders) {
            leftOut = "its body is still compressed in the HAR (Content-Encoding with compressed bytes); export it decoded"
        }
        self.leftOut = leftOut
    }

    /// `scheme://host[:port]/path?query`, the path decoded; a path with `.` or `..` segments is refused.
    static func parseURL(_ url: String, at pointer: String) throws(ImportError)
        -> (scheme: String, host: String, port: Int?, path: String, query: [QueryItem]) {
        let withoutFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard let components = URLComponents(string: String(withoutFragment)), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else {
            throw ImportError("\(pointer): '\(url.prefix(120))' is not an absolute http(s) URL")
        }
        let rawPath = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard let path = rawPath.removingPercentEncoding else {
            throw ImportError("\(pointer): the path of '\(url.prefix(120))' holds a broken percent escape")
        }
        // A client sends no `..` (it resolves them first), and a stub named after one would point
        // outside the folder: a HAR holding one was edited or forged.
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) where segment == ".." || segment == "." {
            throw ImportError("\(pointer): the path of '\(url.prefix(120))' holds a '\(segment)' segment, which no client sends (a HAR holding one was edited)")
        }
        guard !path.contains("\0") else { throw ImportError("\(pointer): the path holds a NUL byte") }
        var query: [QueryItem] = []
        if let raw = components.percentEncodedQuery, !raw.isEmpty {
            for pair in raw.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                // As libmicrohttpd hands them to stubd: `+` is a space, then percent escapes.
                func decoded(_ s: Substring) -> String {
                    let spaced = s.replacingOccurrences(of: "+", with: " ")
                    return spaced.removingPercentEncoding ?? spaced
                }
                query.append(QueryItem(name: decoded(parts[0]), value: parts.count > 1 ? decoded(parts[1]) : nil))
            }
        }
        return (scheme, host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")), components.port, path, query)
    }

    /// `[{name, value}]`; names HTTP cannot carry (HTTP/2's `:authority`, `:path`…) are left out.
    static func headers(_ json: JSONValue?, at pointer: String) throws(ImportError) -> HTTPFields {
        guard let json else { return HTTPFields() }
        guard case .array(let items) = json else { throw ImportError("\(pointer): must be a list of {name, value}") }
        var fields = HTTPFields()
        for (i, item) in items.enumerated() {
            guard case .object(let header) = item, case .string(let name)? = header["name"] else {
                throw ImportError("\(pointer)/\(i): a header needs a name")
            }
            let value: String = if case .string(let v)? = header["value"] { v } else { "" }
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return fields
    }

    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(of: "%20", with: "+")
    }

    /// A body a tool kept as it came over the wire (gzip's or zlib's magic bytes under a
    /// Content-Encoding saying so): written as is it would be served as garbage.
    static func stillCompressed(_ body: Data, headers: HTTPFields) -> Bool {
        guard let encoding = headers[.contentEncoding]?.lowercased(), body.count >= 2 else { return false }
        let first = body[body.startIndex], second = body[body.startIndex + 1]
        if encoding.contains("gzip") { return first == 0x1F && second == 0x8B }
        if encoding.contains("deflate") { return first == 0x78 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0 }
        return false
    }
}
