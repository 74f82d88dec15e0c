import Foundation
import HTTPTypes
import StubdProtocol
import StubdEngine

/// One WireMock stub mapping (a file of its own, or an item of a file's `{"mappings": [...]}`),
/// translated into a DeclaredStub. Lenient where WireMock's own exports add keys (`id`, `uuid`,
/// `insertionIndex`, `metadata`, `persistent`); strict where a wrong guess would write a wrong stub
/// or read outside `__files/` (a bad base64 body, a `bodyFileName` with `..`): those stop the import.
/// A matcher stubd has no equal for makes the stub come over in part, and says so; a mapping whose
/// URL regex or answer stubd cannot say is left out, named by file and JSON pointer.
struct WireMockMapping {
    /// The mapping file, as the table and messages name it (`mappings/todo.json`).
    let file: String
    /// Where the mapping is in its file: `""` for a file of one, `/mappings/2` for an item.
    let pointer: String
    let json: [String: JSONValue]

    /// `files`: the `__files` folder `bodyFileName` is read from, and only inside `root`, the folder
    /// imported; `maxBytes` caps a body file.
    func translate(files: URL, root: ImportRoot, maxBytes: Int) throws(ImportError) -> ImportCandidate {
        var problems: [String] = []
        func at(_ path: String) -> String { "\(file):\(pointer)\(path)" }
        guard case .object(let request)? = json["request"] else { throw ImportError("\(at("/request")): missing (each mapping needs a request)") }
        let response: [String: JSONValue]
        switch json["response"] {
        case .object(let r)?: response = r
        case nil: response = [:] // WireMock answers 200 with no body
        default: throw ImportError("\(at("/response")): must be an object")
        }

        // The request.
        var methodText = "ANY"
        if let m = request["method"] {
            guard case .string(let text) = m, HTTPRequest.Method(text.uppercased()) != nil else {
                throw ImportError("\(at("/request/method")): not an HTTP method")
            }
            methodText = text.uppercased()
        }
        var partial: [String] = []
        var leftOut: [String] = []
        var path = "/"
        var shown: String?
        var names: [String] = []
        var query: [QueryItem] = []
        let urlKeys = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"].filter { request[$0] != nil }
        if urlKeys.count > 1 { throw ImportError("\(at("/request")): holds \(urlKeys.joined(separator: " and ")); WireMock takes one of them") }
        if let key = urlKeys.first {
            guard case .string(let value)? = request[key] else { throw ImportError("\(at("/request/\(key)")): must be a string") }
            shown = value
            switch key {
            case "url", "urlPath":
                let parts = value.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
                path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                if key == "url", parts.count > 1 { query = WireMockMapping.queryItems(parts[1]) }
                if let problem = RecordedNames.patternProblem(path, secretNames: []) {
                    leftOut.append("\(at("/request/\(key)")): \(problem)")
                }
            case "urlPathTemplate":
                path = value
                for segment in value.split(separator: "/") where segment.hasPrefix("{") && segment.hasSuffix("}") {
                    names.append(String(segment.dropFirst().dropLast()))
                }
            default:
                var regex = value
                if key == "urlPattern", let q = value.range(of: "\\?") {
                    // `urlPattern` is matched against path and query: a literal query part becomes conditions.
                    let queryPart = String(value[q.upperBound...])
                    regex = String(value[..<q.lowerBound])
                    if let literal = WireMockURLPattern.literal(Substring(queryPart.replacingOccurrences(of: "/", with: "%2F"))) {
                        query = WireMockMapping.queryItems(Substring(literal))
                    } else {
                        leftOut.append("\(at("/request/urlPattern")): its query part '\(queryPart)' is a regex stubd cannot say (stubd matches query values exactly or \"*\"); use queryParameters")
                    }
                }
                switch WireMockURLPattern.translate(regex) {
                case .success(let t):
                    path = t.path
                    names = t.names
                    partial += t.looser.map { "\(key): \($0)" }
                case .failure(let refusal):
                    leftOut.append("\(at("/request/\(key)")): \(refusal.message)")
                }
            }
        } else {
            path = "/**"
            partial.append("no URL: it matched every path; the route takes every path (/**)")
        }
        for segment in path.split(separator: "/") where segment == ".." || segment == "." {
            throw ImportError("\(at("/request")): the path '\(path.prefix(120))' holds a '\(segment)' segment, which no client sends")
        }

        func condition(_ name: String, _ matcher: JSONValue, pointer: String, what: String) -> String? {
            guard case .object(let m) = matcher else { partial.append("\(pointer): not a matcher object, not checked"); return nil }
            if m["caseInsensitive"] == .bool(true) { partial.append("\(pointer): caseInsensitive: matched exactly") }
            if case .string(let v)? = m["equalTo"] { return v }
            if m["absent"] == .bool(false) { return "*" }
            if case .string(let r)? = m["matches"], r == ".*" || r == ".+" { return "*" }
            if m["absent"] == .bool(true) {
                partial.append("\(pointer): must be absent: not checked (a stub that wants a value for it is more specific and wins)")
                return nil
            }
            let kinds = m.keys.filter { $0 != "caseInsensitive" }.sorted().joined(separator: ", ")
            if case .string(let r)? = m["matches"] {
                partial.append("\(pointer): matches '\(r.prefix(60))': only required present (stubd compares \(what) exactly or \"*\")")
                return "*"
            }
            partial.append("\(pointer): \(kinds): not checked (stubd compares \(what) exactly or \"*\")")
            return nil
        }
        if let q = request["queryParameters"] {
            guard case .object(let params) = q else { throw ImportError("\(at("/request/queryParameters")): must be an object") }
            for (name, matcher) in params.sorted(by: { $0.key < $1.key }) {
                if let value = condition(name, matcher, pointer: "/request/queryParameters/\(name)", what: "query values") {
                    query.append(QueryItem(name: name, value: value))
                }
            }
        }
        var headers = HTTPFields()
        if let h = request["headers"] {
            guard case .object(let fields) = h else { throw ImportError("\(at("/request/headers")): must be an object") }
            for (name, matcher) in fields.sorted(by: { $0.key < $1.key }) {
                guard let fieldName = HTTPField.Name(name) else { throw ImportError("\(at("/request/headers/\(name)")): not a header name") }
                if let value = condition(name, matcher, pointer: "/request/headers/\(name)", what: "headers") {
                    headers.append(HTTPField(name: fieldName, value: value))
                }
            }
        }
        if case .object(let basic)? = request["basicAuthCredentials"], case .string(let user)? = basic["username"], case .string(let password)? = basic["password"] {
            headers.append(HTTPField(name: .authorization, value: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()))
        }
        if request["cookies"] != nil { partial.append("/request/cookies: not checked") }
        var requestJSON: JSONValue?
        var requestContains: String?
        if let b = request["bodyPatterns"] {
            guard case .array(let patterns) = b else { throw ImportError("\(at("/request/bodyPatterns")): must be a list") }
            for (i, pattern) in patterns.enumerated() {
                let p = "/request/bodyPatterns/\(i)"
                guard case .object(let m) = pattern else { throw ImportError("\(at(p)): must be a matcher object") }
                guard requestJSON == nil, requestContains == nil else { partial.append("\(p): stubd checks one body condition; this one is not checked"); continue }
                if let expected = m["equalToJson"] {
                    if case .string(let text) = expected {
                        do { requestJSON = try JSONParser.parse(text) } catch {
                            throw ImportError("\(at(p + "/equalToJson")): not JSON (\(error.message))")
                        }
                    } else {
                        requestJSON = expected
                    }
                    if m["ignoreExtraElements"] == .bool(true) { partial.append("\(p): ignoreExtraElements: the body must be this JSON exactly") }
                    if m["ignoreArrayOrder"] == .bool(true) { partial.append("\(p): ignoreArrayOrder: arrays compared in order") }
                } else if case .string(let text)? = m["equalTo"] {
                    requestContains = text
                    partial.append("\(p): equalTo: matched as containing the text")
                } else if case .string(let text)? = m["contains"] {
                    requestContains = text
                } else {
                    partial.append("\(p): \(m.keys.sorted().joined(separator: ", ")): not checked (stubd matches a body as equal JSON or containing a text)")
                }
            }
        }

        // The answer.
        var status = 200
        if let s = response["status"] {
            guard case .number(let n) = s, n == n.rounded(), (100...599).contains(Int(n)) else { throw ImportError("\(at("/response/status")): not an HTTP status") }
            status = Int(n)
        }
        var responseHeaders = HTTPFields()
        if let h = response["headers"] {
            guard case .object(let fields) = h else { throw ImportError("\(at("/response/headers")): must be an object") }
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                guard let fieldName = HTTPField.Name(name) else { throw ImportError("\(at("/response/headers/\(name)")): not a header name") }
                // The server frames the answer itself.
                if ["content-length", "transfer-encoding", "connection"].contains(name.lowercased()) { continue }
                let values: [JSONValue] = if case .array(let items) = value { items } else { [value] }
                for v in values {
                    let text: String = switch v {
                    case .string(let s): s
                    case .number, .bool: v.serialized
                    default: ""
                    }
                    guard HTTPField.isValidValue(text) else { throw ImportError("\(at("/response/headers/\(name)")): not a header value") }
                    responseHeaders.append(HTTPField(name: fieldName, value: text))
                }
            }
        }
        var body = Data()
        let bodyKeys = ["body", "jsonBody", "base64Body", "bodyFileName"].filter { response[$0] != nil }
        if bodyKeys.count > 1 { problems.append("\(at("/response")): holds \(bodyKeys.joined(separator: " and ")); WireMock takes one of them") }
        switch bodyKeys.first {
        case "body"?:
            guard case .string(let text)? = response["body"] else { throw ImportError("\(at("/response/body")): must be a string (jsonBody for JSON)") }
            body = Data(text.utf8)
        case "jsonBody"?:
            body = Data(response["jsonBody"]!.serialized.utf8)
        case "base64Body"?:
            guard case .string(let text)? = response["base64Body"], let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters),
                  text.allSatisfy({ $0.isWhitespace || $0.isASCII && ($0.isLetter || $0.isNumber) || "+/=".contains($0) }) else {
                throw ImportError("\(at("/response/base64Body")): not base64")
            }
            body = bytes
        case "bodyFileName"?:
            guard case .string(let name)? = response["bodyFileName"] else { throw ImportError("\(at("/response/bodyFileName")): must be a string") }
            body = try WireMockMapping.bodyFile(name, in: files, root: root, at: at("/response/bodyFileName"), maxBytes: maxBytes)
            if responseHeaders[.contentType] == nil, let ext = name.split(separator: "/").last?.split(separator: ".").dropFirst().last {
                // WireMock types a body file by its name when the mapping does not.
                let type = ContentType.forExtension(String(ext))
                if type != "application/octet-stream" { responseHeaders[.contentType] = type }
            }
        default: break
        }
        var delay: Duration?
        if let d = response["fixedDelayMilliseconds"] {
            guard case .number(let ms) = d, ms >= 0, ms < 86_400_000 else { throw ImportError("\(at("/response/fixedDelayMilliseconds")): not a number of milliseconds") }
            if ms >= 1 { delay = .milliseconds(Int(ms.rounded())) }
        }
        if response["delayDistribution"] != nil { partial.append("/response/delayDistribution: no delay") }
        if response["chunkedDribbleDelay"] != nil { partial.append("/response/chunkedDribbleDelay: sent at once") }
        if case .array(let t)? = response["transformers"], !t.isEmpty {
            partial.append("/response/transformers (\(t.compactMap { if case .string(let s) = $0 { s } else { nil } }.joined(separator: ", "))): the body is served as written, not as a template")
        }
        if response["transformers"] == nil, String(decoding: body, as: UTF8.self).contains("{{") {
            partial.append("the body holds {{…}}: served as written (WireMock renders it only with response templating on)")
        }
        if json["postServeActions"] != nil || json["serveEventListeners"] != nil { partial.append("webhooks and post-serve actions: not run") }
        // WireMock's faults onto stubd's (docs/stubs-folder.md): the same break on the wire where
        // stubd has one; a garbled chunk becomes a body cut short, and garbage then a close becomes
        // a close before any byte: the nearest a client sees (no HTTP answer, the connection gone).
        var fault: Fault?
        if let f = response["fault"] {
            guard case .string(let name) = f else { throw ImportError("\(at("/response/fault")): must be a fault's name") }
            switch name {
            case "CONNECTION_RESET_BY_PEER": fault = .connectionReset
            case "EMPTY_RESPONSE": fault = .emptyResponse
            case "MALFORMED_RESPONSE_CHUNK":
                fault = .truncatedBody
                partial.append("/response/fault: MALFORMED_RESPONSE_CHUNK served as truncated_body, the nearest (the body is cut short, not sent as a garbled chunk)")
            case "RANDOM_DATA_THEN_CLOSE":
                fault = .emptyResponse
                partial.append("/response/fault: RANDOM_DATA_THEN_CLOSE served as empty_response, the nearest (the connection closes with no answer, but no garbage comes first: curl exits 52, not 8)")
            default:
                leftOut.append("\(at("/response/fault")): a fault (\(name)) stubd has no equal for (it has connection_reset, empty_response, truncated_body, malformed_json, hang); add `response: { fault: … }` by hand (docs/stubs-folder.md)")
            }
        }
        if response["proxyBaseUrl"] != nil { leftOut.append("\(at("/response/proxyBaseUrl")): a proxy, not an answer (stubd serve --proxy forwards)") }
        // stubd's scenarios (docs/scenarios.md) start in `Started` as WireMock's do; their names and
        // states are words (they are part of admin URLs), so `To do list` becomes `To-do-list`.
        var scenario: ScenarioStep?
        if let s = json["scenarioName"] {
            guard case .string(let name) = s, !name.isEmpty else { throw ImportError("\(at("/scenarioName")): must be a name") }
            var words: [String?] = []
            for key in ["requiredScenarioState", "newScenarioState"] {
                switch json[key] {
                case .string(let state)?: words.append(state)
                case nil, .null?: words.append(nil)
                default: throw ImportError("\(at("/\(key)")): must be a state's name")
                }
            }
            let step = ScenarioStep(name: WireMockMapping.word(name), whenState: words[0].map(WireMockMapping.word), thenState: words[1].map(WireMockMapping.word))
            let pairs: [(String?, String?)] = [(name, step.name), (words[0], step.whenState), (words[1], step.thenState)]
            for (original, made) in pairs where original != nil && original != made {
                partial.append("scenario name or state '\(original!)' is written '\(made!)' (stubd's are letters, digits, '_', '-' or '.')")
            }
            scenario = step
        } else if json["requiredScenarioState"] != nil || json["newScenarioState"] != nil {
            partial.append("requiredScenarioState/newScenarioState without a scenarioName: ignored, as WireMock ignores them")
        }
        var priority: Int?
        if let p = json["priority"] {
            guard case .number(let n) = p, n == n.rounded(), n >= 0, n < 1_000_000 else { throw ImportError("\(at("/priority")): not a whole number") }
            priority = Int(n)
        }
        if !problems.isEmpty { throw ImportError(problems) }

        let target = path + (query.isEmpty ? "" : "?" + query.map { $0.name + "=…" }.joined(separator: "&"))
        var translation = ImportCandidate(source: file + (pointer.isEmpty ? "" : "#" + pointer), method: methodText, target: target, status: status, partial: partial)
        if !leftOut.isEmpty {
            translation.target = shown ?? target
            translation.leftOut = leftOut.joined(separator: "; ")
            return translation
        }
        // A request the route answers: a value for each `{name}`, each query and header condition met.
        let samplePath = path.split(separator: "/", omittingEmptySubsequences: false).map { $0.hasPrefix("{") || $0 == "**" ? "x" : String($0) }.joined(separator: "/")
        let sampleQuery = query.map { QueryItem(name: $0.name, value: $0.value == "*" ? "x" : $0.value) }
        var sampleHeaders = HTTPFields(headers.map { HTTPField(name: $0.name, value: $0.value == "*" ? "x" : $0.value) })
        var sampleBody = Data()
        if let requestJSON {
            sampleBody = Data(requestJSON.serialized.utf8)
            sampleHeaders[.contentType] = "application/json"
        } else if let requestContains {
            sampleBody = Data(requestContains.utf8)
        }
        let method = HTTPRequest.Method(methodText)!
        let sample = RequestHead(method: methodText == "ANY" ? .get : method, path: samplePath, query: sampleQuery, headers: sampleHeaders, body: sampleBody)
        translation.stub = DeclaredStub(method: method, path: path, parameterNames: names, query: query, headers: headers,
                                        requestJSON: requestJSON, requestContains: requestContains, status: HTTPResponse.Status(code: status),
                                        responseHeaders: responseHeaders, responseBody: body, delay: delay, priority: priority, sample: sample)
        translation.stub?.scenario = scenario
        translation.stub?.fault = fault
        // The mapping's `name` (WireMock's recorder and its users give one) names the route, not `rec-<hash>`.
        if case .string(let name)? = json["name"] { translation.stub?.name = name }
        translation.identity = ImportCandidate.identity(of: translation.stub!)
        return translation
    }

    /// A scenario's name or state as stubd takes it: letters, digits, `_`, `-`, `.` (others become `-`), at most 100.
    static func word(_ text: String) -> String {
        var out = String(text.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." ? $0 : "-" }.prefix(100))
        if out.isEmpty { out = "-" }
        return out
    }

    /// `a=1&b=2` as query items, decoded as a client's would be.
    static func queryItems(_ text: Substring) -> [QueryItem] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ s: Substring) -> String { let t = s.replacingOccurrences(of: "+", with: " "); return t.removingPercentEncoding ?? t }
            return QueryItem(name: decoded(parts[0]), value: parts.count > 1 ? decoded(parts[1]) : nil)
        }
    }

    /// A `bodyFileName`'s bytes, read only from inside `__files/` (no `..`, no absolute path) and from
    /// nowhere outside `root`, whichever component is a symbolic link (`__files` itself included), and
    /// no larger than `maxBytes`.
    static func bodyFile(_ name: String, in files: URL, root: ImportRoot, at pointer: String, maxBytes: Int) throws(ImportError) -> Data {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\0"),
              !name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." }),
              !name.contains("\\") else {
            throw ImportError("\(pointer): '\(name.prefix(120))' would be read from outside __files/ (a bodyFileName is a path inside __files/, without '..' or a leading '/')")
        }
        guard let url = try root.resolve(files.appendingPathComponent(name), label: "\(pointer): __files/\(name.prefix(120))") else {
            throw ImportError("\(pointer): __files/\(name.prefix(120)) is missing (looked in \(files.path))")
        }
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard (attributes[.type] as? FileAttributeType) == .typeRegular else { throw ImportError("\(pointer): __files/\(name) is not a file") }
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError("\(pointer): __files/\(name.prefix(120)) is missing (looked in \(files.path))")
        }
        guard size <= maxBytes else { throw ImportError("\(pointer): __files/\(name) is \(size >> 20) MiB, over the \(maxBytes >> 20) MiB --max-size") }
        guard let data = FileManager.default.contents(atPath: url.path) else { throw ImportError("\(pointer): __files/\(name) cannot be read") }
        return data
    }
}
