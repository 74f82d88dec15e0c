import Foundation
import StubdProtocol
import Yams
import HTTPTypes

extension ManifestParser {
    /// `parameters`: the route's `{names}`, which a template may use; nil where templates are not
    /// rendered (a quota's `exceeded` answer).
    mutating func parseResponse(_ node: Node, routeDelay: Delay?, parameters: [String]?) -> CannedResponse? {
        guard let map = mapping(node, "a response") else { return nil }
        checkKeys(map, ["status", "headers", "file", "body", "json", "content", "delay", "fault", "throttle", "quotaStatus", "template", "websocket"] + ManifestParser.eventKeys, in: "a response")
        let webSocket = parseWebSocketResponse(map, node: node)
        let events = parseEventStream(map, node: node, templated: map["template"]?.bool == true, parameters: parameters ?? [])
        let templated = map["template"].flatMap { bool($0, "template") } ?? false
        if templated, parameters == nil, let t = map["template"] {
            add(t, "a quota's exceeded answer is not a template", hint: "remove 'template'; the quota's own headers say what is left")
        }
        // Where the template's text starts, for its errors: a file's own lines, or the manifest's.
        var templateOrigin: TemplateOrigin?
        var status = 200
        if let s = map["status"], let n = int(s, "status") {
            if (100...599).contains(n) { status = n } else { add(s, "status \(n) is not an HTTP status", hint: "use 100–599") }
        }
        let ownHeaders = map["headers"].map { headerFields($0, "headers") } ?? HTTPFields()
        var headers = HTTPFields(defaultHeaders.filter { ownHeaders[$0.name] == nil })
        var body = Data()
        var contentType: String?
        var bodySource: String?
        var fault: Fault?
        if let f = map["fault"], let text = string(f, "fault") {
            if let parsed = Fault(rawValue: text) { fault = parsed }
            else { add(f, "unknown fault '\(text)'", hint: "one of " + Fault.allCases.map(\.rawValue).joined(separator: ", ")) }
        }
        let bodyKeys = ["file", "body", "json", "quotaStatus"].filter { map[$0] != nil }
        if bodyKeys.count > 1 { add(node, "a response has one of 'file', 'body', 'json' or 'quotaStatus', not \(bodyKeys.joined(separator: " and "))") }
        var quotaStatus: QuotaStatusStyle?
        if let q = map["quotaStatus"], let text = string(q, "quotaStatus") {
            if let style = QuotaStatusStyle(rawValue: text) { quotaStatus = style; contentType = ContentType.json }
            else { add(q, "unknown quotaStatus '\(text)'", hint: "one of " + QuotaStatusStyle.allCases.map(\.rawValue).joined(separator: ", ")) }
        }
        if let f = map["file"], let rel = string(f, "file") {
            switch reader.readReferenced(rel) {
            case .success(let found):
                body = found.data
                bodySource = found.path
                let ext = rel.fileExtension
                contentType = ContentType.forExtension(ext)
                templateOrigin = .file(found.path)
                // A template's JSON is whole only once rendered (`"n": {{hits}}`), so it is not checked here.
                if ContentType.isJSON(extension: ext), !templated {
                    do { _ = try JSONParser.parse(found.data) } catch {
                        problems.add(found.path, line: error.line, column: error.column, "invalid JSON: \(error.message)",
                                     hint: "fix it, or use a non-.json name or fault: malformed_json for a broken body on purpose")
                    }
                }
            case .failure(.missing):
                add(f, "file '\(rel)' does not exist", hint: "paths are relative to the stubs directory or its __files/ folder")
            case .failure(.outsideRoot):
                add(f, "file '\(rel)' is outside the stubs directory", hint: "only files inside the stubs directory are served")
            case .failure(.unreadable):
                add(f, "file '\(rel)' cannot be read", hint: "check its permissions")
            case .failure(.notServed):
                add(f, "file '\(rel)' is a dot-file or the manifest, which stubd never serves",
                    hint: "rename the body without a leading '.', or put it under __files/")
            }
        } else if let b = map["body"], let text = string(b, "body") {
            body = Data(text.utf8)
            contentType = ContentType.text
            templateOrigin = .string(b)
        } else if let j = map["json"] {
            let serialized = json(j).serialized
            body = Data(serialized.utf8)
            contentType = ContentType.json
            templateOrigin = .json(j, text: serialized)
        }
        // `content:` a body per media type, the first the default: the one a request's `Accept` prefers is served.
        var variants: [(type: String, body: Data, source: String?)] = []
        if let c = map["content"] {
            if !bodyKeys.isEmpty || templated {
                add(c, "'content' lists a response's bodies by media type; it does not go with \((bodyKeys + (templated ? ["template"] : [])).joined(separator: " or "))",
                    hint: "move the body under content: { application/json: { file: … } }, or drop 'content'")
            } else if let entries = mapping(c, "content (media type: { file | body | json })") {
                for (key, value) in entries {
                    guard let type = string(key, "a media type"), let entry = mapping(value, "a body (file, body or json)") else { continue }
                    let bare = type.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
                    let parts = bare.split(separator: "/", omittingEmptySubsequences: false)
                    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !bare.contains("*") else {
                        add(key, "'\(type)' is not a media type to send", hint: "write type/subtype, such as application/xml")
                        continue
                    }
                    checkKeys(entry, ["file", "body", "json"], in: "a content entry")
                    if entry.count != 1 { add(value, "a content entry has one of 'file', 'body' or 'json'") }
                    guard let parsed = parseResponse(value, routeDelay: nil, parameters: nil) else { continue }
                    variants.append((type, parsed.body, parsed.bodySource))
                }
                if variants.isEmpty { add(c, "'content' lists no body", hint: "content: { application/json: { file: weather.json }, application/xml: { file: weather.xml } }") }
            }
            if let first = variants.first {
                body = first.body
                bodySource = first.source
                contentType = first.type
            }
        }
        if fault == .malformedJSON {
            // Cut a real body short, so a client's decoder fails the way it would on a broken network answer.
            let source = body.isEmpty ? Data(#"{"data":[1,2,3],"status":"ok"}"#.utf8) : body
            body = source.prefix(max(1, source.count / 2)) + Data(#"{"truncated":"#.utf8)
            contentType = ContentType.json
            fault = nil
        }
        if events != nil {
            // The WHATWG spec's type; no-cache, so no proxy or client cache holds a stream back.
            contentType = ContentType.eventStream
            body = Data()
            if ownHeaders[.cacheControl] == nil { headers.append(HTTPField(name: .cacheControl, value: "no-cache")) }
        }
        if let contentType, ownHeaders[.contentType] == nil {
            headers.insert(HTTPField(name: .contentType, value: contentType), at: 0)
        }
        headers.append(contentsOf: ownHeaders)
        if headers[.contentLength] != nil {
            add(node, "Content-Length is set by the server", hint: "remove the Content-Length header; use fault: truncated_body to lie about the length")
            headers[.contentLength] = nil
        }
        let responseDelay = map["delay"].flatMap { delay($0) } ?? routeDelay
        var bytesPerSecond: Int?
        if let t = map["throttle"] {
            if let n = t.int { bytesPerSecond = n }
            else if let m = t.mapping, let v = m["bytes_per_second"], let n = int(v, "bytes_per_second") {
                checkKeys(m, ["bytes_per_second"], in: "throttle")
                bytesPerSecond = n
            } else { add(t, "throttle needs bytes_per_second", hint: "throttle: { bytes_per_second: 1024 }") }
            if let n = bytesPerSecond, n < 1 { add(t, "bytes_per_second must be at least 1"); bytesPerSecond = nil }
        }
        var template: ResponseTemplate?
        if templated, let parameters {
            let declared = headers.last { $0.name == .contentType }?.value
            let json = map["json"] != nil || declared.map { ContentType.isJSON(mediaType: $0) } == true
            template = responseTemplate(body: body, headers: headers, parameters: parameters, json: json,
                                        origin: templateOrigin, headersAt: map["headers"] ?? node)
        }
        let alternatives = variants.dropFirst().map { variant in
            var own = headers
            own[.contentType] = variant.type
            return CannedResponse(status: HTTPResponse.Status(code: status), headers: own, body: variant.body, delay: responseDelay,
                                  fault: fault, bytesPerSecond: bytesPerSecond, bodySource: variant.source)
        }
        return CannedResponse(status: HTTPResponse.Status(code: status), headers: headers, body: body, delay: responseDelay, fault: fault,
                              bytesPerSecond: bytesPerSecond, bodySource: bodySource, quotaStatus: quotaStatus, template: template,
                              alternatives: Array(alternatives), events: events, webSocket: webSocket)
    }

    /// The template of a `template: true` answer; each of its problems is placed where it was written.
    private mutating func responseTemplate(body: Data, headers: HTTPFields, parameters: [String], json: Bool,
                                           origin: TemplateOrigin?, headersAt: Node) -> ResponseTemplate? {
        do {
            return try ResponseTemplate.parse(body: body.isEmpty ? nil : String(decoding: body, as: UTF8.self),
                                              headers: headers, parameters: parameters, json: json)
        } catch {
            for e in error.body {
                // The positions a problem names, in the file the template was written in.
                func place(_ line: Int, _ column: Int) -> (file: String, line: Int, column: Int) {
                    switch origin {
                    case .file(let path)?: return (path, line, column)
                    case .string(let node)?:
                        let at = source.place(line: line, column: column, inValueOf: node)
                        return (file, at.line, at.column)
                    case let .json(node, text)?:
                        let at = source.place(line: line, column: column, inJSON: text, of: node)
                        return (file, at.line, at.column)
                    case nil: return (file, headersAt.mark?.line ?? 1, headersAt.mark?.column ?? 1)
                    }
                }
                let at = place(e.line, e.column)
                let opened = e.opened.map { place($0.line, $0.column) }.map { " opened at \($0.line):\($0.column)" } ?? ""
                problems.add(at.file, line: at.line, column: at.column, "template: \(e.message)\(opened)", hint: e.hint)
            }
            for (name, errors) in error.headers {
                // The header's own value when this response wrote it; a default header's, at the headers.
                let valueNode = headersAt.mapping?.first { $0.key.string?.lowercased() == name.lowercased() }?.value
                for e in errors {
                    if let valueNode {
                        let (line, column) = source.place(line: e.line, column: e.column, inValueOf: valueNode)
                        problems.add(file, line: line, column: column, "template in header \(name): \(e.message)", hint: e.hint)
                    } else {
                        add(headersAt, "template in header \(name), column \(e.column): \(e.message)", hint: e.hint)
                    }
                }
            }
            return nil
        }
    }
}
