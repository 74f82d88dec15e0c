import Foundation

/// An exchange with every secret replaced (not deleted, so matching still works), reduced to what
/// a stub needs: the request's pattern and conditions, and the answer's status, headers and body.
struct ScrubbedExchange {
    var method: String
    /// `/api/{key}/conditions/q/CA/San_Francisco.json` once `--secret key=…` took the key out.
    var path: String
    /// `"*"` for a secret value: present, any value.
    var query: [(name: String, value: String)]
    var headers: [(name: String, value: String)]
    var requestJSON: JSONValue?
    var status: Int
    var responseHeaders: [(name: String, value: String)]
    var responseBody: Data
    /// The body's type, without parameters (`application/json`).
    var mediaType: String?

    /// Stable across re-recordings of the same request: names its files and route.
    var key: String {
        var text = method + " " + path + "\n"
        for q in query.sorted(by: { ($0.name, $0.value) < ($1.name, $1.value) }) { text += q.name + "=" + q.value + "&" }
        text += "\n" + headers.map { $0.name + ":" + $0.value }.sorted().joined(separator: "\n")
        text += "\n" + (requestJSON?.serialized ?? "")
        let hash = text.utf8.reduce(0xcbf29ce484222325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100000001b3 }
        return String(String(hash, radix: 16).suffix(8)).leftPadded(to: 8)
    }
}

enum ExchangeScrubber {
    static func scrub(_ exchange: RecordedExchange, rules: RecordingRules) -> ScrubbedExchange {
        // Every literal that must not reach a file, with what stands in for it.
        var literals: [(value: String, placeholder: String)] = rules.secrets.map { ($0.value, "<\($0.name)>") }
        for q in exchange.query where RecordingRules.secretQueryNames.contains(q.name.lowercased()) {
            if let v = q.value, v.count >= 3 { literals.append((v, "<\(q.name.lowercased())>")) }
        }
        for h in exchange.requestHeaders where RecordingRules.secretHeaders.contains(h.name.lowercased()) {
            literals.append((h.value, "<redacted>"))
            // `Bearer abc`: the token alone may be echoed back.
            if let space = h.value.firstIndex(of: " ") {
                let token = String(h.value[h.value.index(after: space)...])
                if token.count >= 3 { literals.append((token, "<redacted>")) }
            }
        }
        literals = literals.filter { !$0.value.isEmpty }.sorted { $0.value.count > $1.value.count }
        func redact(_ text: String) -> String {
            literals.reduce(text) { $0.replacingOccurrences(of: $1.value, with: $1.placeholder) }
        }

        let segments = exchange.path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            if let secret = rules.secrets.first(where: { $0.value == segment }) { return "{\(secret.name)}" }
            return redact(String(segment))
        }
        let path = segments.joined(separator: "/")
        let query = exchange.query.filter { $0.name.lowercased() != "session" }.map { q -> (name: String, value: String) in
            let value = q.value ?? ""
            if RecordingRules.secretQueryNames.contains(q.name.lowercased()) || redact(value) != value { return (q.name, "*") }
            return (q.name, value)
        }
        let headers = exchange.requestHeaders.filter { rules.matchHeaders.contains($0.name.lowercased()) }.map { h in
            (name: h.name, value: RecordingRules.secretHeaders.contains(h.name.lowercased()) || redact(h.value) != h.value ? "*" : h.value)
        }
        var requestJSON: JSONValue?
        if !exchange.requestBody.isEmpty, let text = String(data: exchange.requestBody, encoding: .utf8), redact(text) == text {
            requestJSON = try? JSONParser.parse(exchange.requestBody)
        }

        var responseHeaders: [(name: String, value: String)] = []
        for h in exchange.responseHeaders {
            let lowered = h.name.lowercased()
            guard RecordingRules.keepsResponseHeader(lowered) else { continue }
            var value = redact(h.value)
            if lowered == "location", !rules.targetOrigin.isEmpty, value.hasPrefix(rules.targetOrigin) {
                value = String(value.dropFirst(rules.targetOrigin.count))
                if value.isEmpty { value = "/" }
            }
            if lowered == "set-cookie" {
                // `session=abc; Path=/` → `session=<redacted>; Path=/`: the cookie's name and rules stay.
                // One without a name (`Set-Cookie: ;`, or empty) sets nothing in a browser: not kept.
                guard let cookie = redactedCookie(value) else { continue }
                value = cookie
            }
            responseHeaders.append((h.name, value))
        }
        let mediaType = responseHeaders.first { $0.name.lowercased() == "content-type" }.map {
            $0.value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        }
        var body = exchange.responseBody
        if let text = String(data: body, encoding: .utf8), isText(mediaType) {
            body = Data(redact(text).utf8)
            if mediaType.map(isJSON) == true, let pretty = prettyJSON(body) { body = pretty }
        }
        return ScrubbedExchange(method: exchange.method, path: path, query: query, headers: headers, requestJSON: requestJSON,
                                status: exchange.status, responseHeaders: responseHeaders, responseBody: body, mediaType: mediaType)
    }

    /// `name=value; attributes` with the value replaced, or nil when there is no name to keep.
    static func redactedCookie(_ header: String) -> String? {
        let parts = header.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let pair = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !name.isEmpty else { return nil }
        return name + "=<redacted>" + (parts.count > 1 ? ";" + parts[1] : "")
    }

    static func isJSON(_ mediaType: String) -> Bool { mediaType == "application/json" || mediaType.hasSuffix("+json") }

    static func isText(_ mediaType: String?) -> Bool {
        guard let m = mediaType else { return true }
        return m.hasPrefix("text/") || isJSON(m) || m.hasSuffix("xml") || m == "application/javascript" || m == "application/x-www-form-urlencoded"
    }

    /// Indented, keys sorted, slashes as they are: readable and stable from one recording to the next.
    static func prettyJSON(_ data: Data) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              var out = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return nil }
        out.append(0x0A)
        return out
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
