import Foundation
import HTTPTypes
import StubdEngine

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
                guard let cookie = ExchangeSecrets.redactedCookie(value) else { continue }
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
        ExchangeSecrets.masker(query: exchange.query, requestHeaders: exchange.requestHeaders, requestBody: exchange.requestBody,
                responseHeaders: exchange.responseHeaders, known: SecretMasker(rules.secrets.map { ($0.value, $0.placeholder) }))
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
