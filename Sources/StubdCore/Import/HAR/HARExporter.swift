package import Foundation
import HTTPTypes
import StubdProtocol
package import StubdEngine

/// `stubd export har`: a Stubs folder's routes as a HAR 1.2 file, one entry per answer (a sequence
/// gives one entry per step, in order), so a recording can be opened in any HAR viewer, or imported
/// again. Each route's request is the one `stubd drift` would send (DriftRequest): a `{param}` needs
/// its `--secret` value, a `"*"` query or header value is written as `<NAME>`.
package struct HARExporter {
    package struct Output: Sendable {
        package var har: Data
        package var entries: Int
        package var routes: Int
        /// Routes (or answers) left out, and why.
        package var leftOut: [(route: String, why: String)]
    }

    package let catalog: StubCatalog
    package let secrets: [NamedSecret]
    /// Where the requests go: `http://localhost:8080`, no trailing slash.
    package let baseURL: String

    package init(catalog: StubCatalog, secrets: [NamedSecret], baseURL: String) {
        self.catalog = catalog
        self.secrets = secrets
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    package func export(now: Date = Date()) -> Output {
        let hostFolders = HostScope.hostFolders(of: catalog.routes)
        var entries: [JSONValue] = []
        var leftOut: [(route: String, why: String)] = []
        var routes = 0
        let started = ISO8601DateFormatter().string(from: now)
        for route in catalog.routes {
            if case .runtime = route.source { continue }
            let request: DriftRequest.ConcreteRequest
            switch DriftRequest.concreteRequest(for: route, secrets: secrets, placeholders: true) {
            case .success(let r): request = r
            case .failure(let why): leftOut.append((route.description, why.reason)); continue
            }
            let url = self.url(request.paths[0], query: request.query, hostFolders: hostFolders)
            var wrote = false
            for (i, answer) in route.responses.enumerated() {
                let step = route.responses.count > 1 ? " answer \(i + 1)" : ""
                if answer.fault != nil { leftOut.append((route.description + step, "a fault, not an answer")); continue }
                if answer.template != nil { leftOut.append((route.description + step, "a template, rendered per request")); continue }
                if answer.quotaStatus != nil { leftOut.append((route.description + step, "made from stubd's quotas")); continue }
                entries.append(entry(request, url: url, answer: answer, started: started))
                wrote = true
            }
            if wrote { routes += 1 }
        }
        let har = JSONValue.object(["log": .object([
            "version": .string("1.2"),
            "creator": .object(["name": .string("stubd"), "version": .string(StubEngine.version)]),
            "entries": .array(entries),
        ])])
        return Output(har: Data((har.serialized + "\n").utf8), entries: entries.count, routes: routes, leftOut: leftOut)
    }

    /// A host folder's route goes to its host; the rest to `baseURL`.
    private func url(_ path: String, query: [QueryItem], hostFolders: [String: String]) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#")
        var origin = baseURL
        var rest = path
        let first = path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
        if hostFolders[first.lowercased()] != nil {
            origin = "http://" + first.lowercased()
            rest = String(path.dropFirst(first.count + 1))
            if rest.isEmpty { rest = "/" }
        }
        var text = origin + (rest.addingPercentEncoding(withAllowedCharacters: allowed) ?? rest)
        if !query.isEmpty {
            var valueAllowed = CharacterSet.alphanumerics
            valueAllowed.insert(charactersIn: "-._~")
            text += "?" + query.map { q in
                (q.name.addingPercentEncoding(withAllowedCharacters: valueAllowed) ?? q.name)
                    + (q.value.map { "=" + ($0.addingPercentEncoding(withAllowedCharacters: valueAllowed) ?? $0) } ?? "")
            }.joined(separator: "&")
        }
        return text
    }

    private func entry(_ request: DriftRequest.ConcreteRequest, url: String, answer: CannedResponse, started: String) -> JSONValue {
        func pairs(_ fields: HTTPFields) -> JSONValue {
            .array(fields.map { .object(["name": .string($0.name.rawName), "value": .string($0.value)]) })
        }
        var requestObject: [String: JSONValue] = [
            "method": .string(request.method.rawValue), "url": .string(url), "httpVersion": .string("HTTP/1.1"),
            "cookies": .array([]), "headers": pairs(request.headers),
            "queryString": .array(request.query.map { .object(["name": .string($0.name), "value": .string($0.value ?? "")]) }),
            "headersSize": .number(-1), "bodySize": .number(Double(request.body.count)),
        ]
        if !request.body.isEmpty {
            requestObject["postData"] = .object(["mimeType": .string(request.headers[.contentType] ?? ""),
                                                 "text": .string(String(decoding: request.body, as: UTF8.self))])
        }
        let mimeType = answer.headers[.contentType] ?? ""
        var content: [String: JSONValue] = ["size": .number(Double(answer.body.count)), "mimeType": .string(mimeType)]
        if !answer.body.isEmpty {
            if let text = String(data: answer.body, encoding: .utf8), HARExporter.isText(mimeType) {
                content["text"] = .string(text)
            } else {
                content["text"] = .string(answer.body.base64EncodedString())
                content["encoding"] = .string("base64")
            }
        }
        var wait = 0.0
        if case .fixed(let d)? = answer.delay { wait = Double(d.nanoseconds) / 1e6 }
        let response: [String: JSONValue] = [
            "status": .number(Double(answer.status.code)), "statusText": .string(answer.status.reasonPhrase),
            "httpVersion": .string("HTTP/1.1"), "cookies": .array([]), "headers": pairs(answer.headers),
            "content": .object(content), "redirectURL": .string(answer.headers[.location] ?? ""),
            "headersSize": .number(-1), "bodySize": .number(Double(answer.body.count)),
        ]
        return .object([
            "startedDateTime": .string(started), "time": .number(wait),
            "request": .object(requestObject), "response": .object(response), "cache": .object([:]),
            "timings": .object(["send": .number(0), "wait": .number(wait), "receive": .number(0)]),
        ])
    }

    /// Bodies a HAR viewer shows as text; anything else goes as base64.
    static func isText(_ mimeType: String) -> Bool {
        let type = mimeType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type.hasPrefix("text/") || ExchangeScrubber.isJSON(type) || type.hasSuffix("+xml") || type == "application/xml"
            || type == "application/javascript" || type == "application/x-www-form-urlencoded"
    }
}
