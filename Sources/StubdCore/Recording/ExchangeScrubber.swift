import Foundation
import HTTPTypes

enum ExchangeScrubber {
    static func scrub(_ exchange: RecordedExchange, rules: RecordingRules) -> ScrubbedExchange {
        let masker = secrets(of: exchange, rules: rules)
        func redact(_ text: String) -> String { masker.mask(text) }

        let segments = exchange.path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            if let secret = rules.secrets.first(where: { $0.value == segment }) { return "{\(secret.name)}" }
            return redact(String(segment))
        }
        let path = segments.joined(separator: "/")
        let query = exchange.query.filter { $0.name.lowercased() != "session" }.map { q -> QueryItem in
            let value = q.value ?? ""
            if SecretNames.isSecretParameter(q.name) || masker.finds(in: value) { return QueryItem(name: q.name, value: "*") }
            return QueryItem(name: q.name, value: value)
        }
        let headers = HTTPFields(exchange.requestHeaders.filter { rules.matchHeaders.contains($0.name.canonicalName) }.map { h in
            HTTPField(name: h.name, value: SecretNames.isSecretHeader(h.name.canonicalName) || masker.finds(in: h.value) ? "*" : h.value)
        })
        var requestJSON: JSONValue?
        // A body holding a secret is not matched on: the route answers any body instead.
        if !exchange.requestBody.isEmpty, masker.mask(exchange.requestBody) == exchange.requestBody {
            requestJSON = try? JSONParser.parse(exchange.requestBody)
        }

        var responseHeaders = HTTPFields()
        for h in exchange.responseHeaders {
            let lowered = h.name.canonicalName
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
            responseHeaders.append(HTTPField(name: h.name, value: value))
        }
        let contentType = responseHeaders.firstValue(of: .contentType)
        let mediaType = contentType.map {
            $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        }
        // Whatever its type: a token echoed in a PNG or in JSON that is not UTF-8 is a token all the same.
        var body = masker.mask(exchange.responseBody)
        // The API's bytes by default: re-serializing reorders keys and turns `1.0` into `1`, which a
        // Python client then reads as an int.
        if rules.prettyJSON, mediaType.map(isJSON) == true, let pretty = prettyJSON(body) { body = pretty }
        return ScrubbedExchange(method: exchange.method, path: path, query: query, headers: headers, requestJSON: requestJSON,
                                status: exchange.status, responseHeaders: responseHeaders, responseBody: body, mediaType: mediaType,
                                contentType: contentType, delay: exchange.delay)
    }

    /// Every value that must not reach a file, with what stands in for it.
    static func secrets(of exchange: RecordedExchange, rules: RecordingRules) -> SecretMasker {
        secrets(query: exchange.query, requestHeaders: exchange.requestHeaders, requestBody: exchange.requestBody,
                responseHeaders: exchange.responseHeaders, known: SecretMasker(rules.secrets.map { ($0.value, $0.placeholder) }))
    }

    /// The same, from an exchange's parts: the journal finds a request's secrets this way before it
    /// keeps the bodies for `stubd export har`. `known`: `--secret` values; `extraHeaders`: more
    /// lower-cased header names to treat as credentials (`serve --mask-header`).
    static func secrets(query: [QueryItem], requestHeaders: HTTPFields, requestBody: Data, responseHeaders: HTTPFields,
                        known: SecretMasker, extraHeaders: Set<String> = []) -> SecretMasker {
        var literals: [(value: String, placeholder: String)] = known.literals
        // Shorter values match too much ordinary text to be worth replacing (`key=1`).
        func add(_ value: String, _ placeholder: String, atLeast minimum: Int = 3) {
            if value.count >= minimum, literals.count < known.literals.count + maxValues { literals.append((value, placeholder)) }
        }
        for q in query where SecretNames.isSecretParameter(q.name) {
            if let v = q.value { add(v, "<\(q.name.lowercased())>") }
        }
        for h in requestHeaders where SecretNames.isSecretHeader(h.name.canonicalName) || extraHeaders.contains(h.name.canonicalName) {
            add(h.value, "<redacted>")
            // `Bearer abc`: the token alone may be echoed back.
            if let token = SecretNames.credential(afterScheme: h.value) {
                add(token, "<redacted>")
                // `Basic dXNlcjpodW50ZXIy`: the password in it may be echoed decoded (`user:hunter2`).
                if h.value.lowercased().hasPrefix("basic "), let data = Data(base64Encoded: token),
                   let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":") {
                    add(pair, "<redacted>")
                    add(String(pair[pair.index(after: colon)...]), "<redacted>")
                }
            }
            if h.name == .cookie {
                for (_, value) in cookiePairs(h.value) { add(value, "<redacted>", atLeast: cookieMinimum) }
            }
        }
        // A session the API sets may come back in the same answer's body.
        for h in responseHeaders where h.name == .setCookie {
            if let pair = cookiePairs(h.value).first { add(pair.value, "<redacted>", atLeast: cookieMinimum) }
        }
        let contentType = requestHeaders.firstValue(of: .contentType)?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            for pair in String(decoding: requestBody, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, SecretNames.isSecretParameter(decodedForm(parts[0])) else { continue }
                add(String(parts[1]), "<redacted>")
                add(decodedForm(parts[1]), "<redacted>")
            }
        } else if let json = try? JSONParser.parse(requestBody) {
            for value in secretValues(in: json) { add(value, "<redacted>") }
        }
        return SecretMasker(literals)
    }

    /// The most values of one exchange looked for everywhere: each is a search of every body and
    /// message shown, so a body of 10,000 `"token"` fields would make reading the journal a scan of
    /// billions of bytes. A secret field's own value is replaced past it all the same (`JSONTextMasking`).
    static let maxValues = 100

    /// Cookie values shorter than this are preferences (`lang=en`, `theme=dark`), not sessions.
    static let cookieMinimum = 8

    /// `a=1; b=2` → [(a, 1), (b, 2)].
    static func cookiePairs(_ header: String) -> [(name: String, value: String)] {
        header.split(separator: ";").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))
        }
    }

    static func decodedForm(_ text: Substring) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
    }

    /// String values under secret names (`password`, `token`…) anywhere in a JSON request body.
    static func secretValues(in json: JSONValue) -> [String] {
        switch json {
        case .object(let members):
            return members.flatMap { name, value -> [String] in
                if SecretNames.isSecretParameter(name), case .string(let s) = value { return [s] }
                return secretValues(in: value)
            }
        case .array(let items): return items.flatMap(secretValues(in:))
        default: return []
        }
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

    /// `text/plain;Charset=UTF-8` → `text/plain; charset=utf-8`: two spellings of one type compare
    /// equal. JSON's `charset=utf-8` is dropped: RFC 8259 defines no charset parameter, and adding
    /// one "really has no effect on compliant recipients"; for every other type it counts.
    static func normalizedContentType(_ value: String) -> String {
        var parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        // JSON defines no charset (RFC 8259), and an event stream is always UTF-8 (WHATWG HTML).
        if let type = parts.first, isJSON(type) || type == "text/event-stream" { parts.removeAll { $0.replacingOccurrences(of: " ", with: "") == "charset=utf-8" } }
        return parts.joined(separator: "; ")
    }

    /// `--pretty-json`: indented, keys sorted, slashes as they are.
    static func prettyJSON(_ data: Data) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              var out = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return nil }
        out.append(0x0A)
        return out
    }
}
