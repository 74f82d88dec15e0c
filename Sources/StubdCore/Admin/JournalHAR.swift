import Foundation
import HTTPTypes
import StubdEngine

/// A session's journal as a HAR 1.2 file (`GET /__stubd/requests?format=har`, `stubd export har
/// --url`), so a failing test's traffic opens in any HAR viewer, or imports again as stubs
/// (`stubd import har`). Bodies are the journal's (`JournalBodies`), scrubbed as `record` scrubs when written here,
/// cut at 64 KiB (`_truncated` and a `comment` say so), or let go when the session's budget ran out.
/// Request headers and query values are masked here, as `GET /__stubd/requests` masks them.
struct JournalHAR {
    let entries: [JournalEntry]
    let masking: JournalMasking

    var data: Data {
        let har = JSONValue.object(["log": .object([
            "version": .string("1.2"),
            "creator": .object(["name": .string("stubd"), "version": .string(StubEngine.version)]),
            "pages": .array([]),
            "entries": .array(entries.map(entry)),
        ])])
        return Data((har.serialized + "\n").utf8)
    }

    private func entry(_ e: JournalEntry) -> JSONValue {
        // The bodies cut and scrubbed now (the journal keeps them as they were); the secrets they were
        // scrubbed of mask the URL and headers too (found once an entry; without bodies, from the request alone).
        let bodies = e.bodies?.shown(for: e, masking: masking)
        let masker = bodies?.masker ?? ExchangeSecrets.masker(query: e.query, requestHeaders: e.headers, requestBody: Data(),
                                                                responseHeaders: [:], known: masking.secrets, extraHeaders: masking.headers).readingJSON()
        func pairs(_ fields: HTTPFields, request: Bool) -> JSONValue {
            .array(fields.map { field in
                var value = masker.mask(field.value)
                if request, masking.headers.contains(field.name.canonicalName) { value = JournalEntry.mask(field.value) }
                if !request, field.name == .setCookie { value = ExchangeSecrets.redactedCookie(value) ?? value }
                return .object(["name": .string(field.name.rawName), "value": .string(value)])
            })
        }
        let query = e.query.map { q -> (String, String) in
            (q.name, SecretNames.isSecretParameter(q.name) && q.value?.isEmpty == false ? "<masked>" : masker.mask(q.value ?? ""))
        }
        let host = e.headers.firstValue(ofCanonicalName: "host").map(masker.mask) ?? "localhost"
        var url = "http://" + host + (e.path.addingPercentEncoding(withAllowedCharacters: JournalHAR.pathAllowed) ?? e.path)
        if !query.isEmpty {
            url += "?" + query.map { name, value in
                (name.addingPercentEncoding(withAllowedCharacters: JournalHAR.valueAllowed) ?? name) + "="
                    + (value.addingPercentEncoding(withAllowedCharacters: JournalHAR.valueAllowed) ?? value)
            }.joined(separator: "&")
        }
        var request: [String: JSONValue] = [
            "method": .string(e.method.rawValue), "url": .string(masker.mask(url)), "httpVersion": .string("HTTP/1.1"),
            "cookies": .array([]), "headers": pairs(e.headers, request: true),
            "queryString": .array(query.map { .object(["name": .string($0.0), "value": .string($0.1)]) }),
            "headersSize": .number(-1), "bodySize": .number(Double(bodies?.requestSize ?? 0)),
        ]
        if let bodies, bodies.requestSize > 0 {
            var postData = body(bodies.requestBody, mimeType: e.headers[.contentType] ?? "", truncated: bodies.requestTruncated,
                                size: bodies.requestSize, dropped: bodies.dropped)
            postData["size"] = nil
            request["postData"] = .object(postData)
        }
        let headers = bodies?.responseHeaders ?? [:]
        let content = body(bodies?.responseBody ?? Data(), mimeType: headers[.contentType] ?? "", truncated: bodies?.responseTruncated ?? false,
                           size: bodies?.responseSize ?? 0, dropped: bodies?.dropped ?? false)
        let time = Double(e.tookMicroseconds ?? 0) / 1000
        var response: [String: JSONValue] = [
            "status": .number(Double(e.status.code)), "statusText": .string(e.status.reasonPhrase),
            "httpVersion": .string("HTTP/1.1"), "cookies": .array([]), "headers": pairs(headers, request: false),
            "content": .object(content), "redirectURL": .string(headers[.location] ?? ""),
            "headersSize": .number(-1), "bodySize": .number(Double(bodies?.responseSize ?? 0)),
        ]
        if bodies == nil { response["comment"] = .string("stubd keeps no body of a request passed on to the real API") }
        var entry: [String: JSONValue] = [
            "startedDateTime": .string(JournalEntry.timeFormat(e.sessionTime)), "time": .number(time),
            "request": .object(request), "response": .object(response), "cache": .object([:]),
            "timings": .object(["send": .number(0), "wait": .number(time), "receive": .number(0)]),
        ]
        if let route = e.route { entry["_route"] = .string(route) }
        return .object(entry)
    }

    /// A HAR `content` (or `postData`) object: text as text, anything else as base64.
    private func body(_ data: Data, mimeType: String, truncated: Bool, size: Int, dropped: Bool) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["size": .number(Double(size)), "mimeType": .string(mimeType)]
        if let text = String(data: data, encoding: .utf8), HARExporter.isText(mimeType) || data.isEmpty {
            object["text"] = .string(text)
        } else {
            object["text"] = .string(data.base64EncodedString())
            object["encoding"] = .string("base64")
        }
        if dropped {
            object["_dropped"] = .bool(true)
            object["comment"] = .string("body not kept: the session's journal holds at most \(RequestJournal.defaultBodyBudget >> 20) MiB of bodies, oldest let go first")
        } else if truncated {
            object["_truncated"] = .bool(true)
            object["comment"] = .string("body cut at \(JournalBodies.limit >> 10) KiB of \(size) bytes")
        }
        return object
    }

    private static let pathAllowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#")
        return allowed
    }()

    private static let valueAllowed: CharacterSet = {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return allowed
    }()
}
