package import Foundation
package import HTTPTypes

/// The secrets of one exchange: every value that must not reach a file or a log, found in its query,
/// headers, cookies and body, each with what stands in for it. The journal masks with it before it
/// keeps bodies for `stubd export har`, and the recorder (`ExchangeScrubber`) before it writes a stub.
package enum ExchangeSecrets {
    /// Every value of the exchange that must not be shown, with what stands in for it. `known`:
    /// `--secret` values; `extraHeaders`: more lower-cased header names to treat as credentials
    /// (`serve --mask-header`).
    package static func masker(query: [QueryItem], requestHeaders: HTTPFields, requestBody: Data, responseHeaders: HTTPFields,
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
    package static let maxValues = 100

    /// Cookie values shorter than this are preferences (`lang=en`, `theme=dark`), not sessions.
    package static let cookieMinimum = 8

    /// `a=1; b=2` → [(a, 1), (b, 2)].
    package static func cookiePairs(_ header: String) -> [(name: String, value: String)] {
        header.split(separator: ";").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))
        }
    }

    package static func decodedForm(_ text: Substring) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
    }

    /// String values under secret names (`password`, `token`…) anywhere in a JSON request body.
    package static func secretValues(in json: JSONValue) -> [String] {
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
    package static func redactedCookie(_ header: String) -> String? {
        let parts = header.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let pair = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !name.isEmpty else { return nil }
        return name + "=<redacted>" + (parts.count > 1 ? ";" + parts[1] : "")
    }

}
