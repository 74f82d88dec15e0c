package import Foundation
package import HTTPTypes
package import StubdEngine

/// The concrete request a route of the folder stands for, secrets put back, ready to send to the
/// real API, and the answer the folder gives it.
package struct DriftRequest: Sendable {
    /// What becomes of one route of the folder.
    package enum Plan: Sendable {
        case replay(DriftRequest)
        /// A recorded route (or, with `--all`, a hand-written one) that cannot be replayed: why.
        case skip(String)
        /// A route of the user's own manifest, replayed only with `--all`.
        case handWritten
    }

    /// `rec-1a2b3c4d (GET /search)`, `GET /api/{key}/items`: as the route table names it.
    package let route: String
    /// `stubd.recorded.yml:12`, `api/{key}/items.json`.
    package let source: String
    /// What is sent to the real API (the request `stubd export har` writes too).
    package let request: ConcreteRequest
    /// The folder's answer (the last of a sequence: the one that repeats).
    package let recorded: DriftAnswer
    /// A WebSocket's script: the app's side of it is played against the API, and what the API
    /// sends back compared (`recorded` is the script's conversation as JSON).
    package var webSocket: WebSocketScript? = nil

    /// Methods that change nothing on the API (RFC 9110 §9.2.1): replayed twice without a second thought.
    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options]

    /// What `route` stands for. Routes `stubd record` wrote (`stubd.recorded.yml`, convention
    /// files) are replayed; the user's manifest routes only when `includeHandWritten` (`--all`);
    /// a POST, PUT, PATCH or DELETE only when `unsafeMethods` (`--unsafe`), since drift sends
    /// each request twice and those may create or delete something on the real API each time.
    package static func plan(for route: Route, secrets: [NamedSecret], includeHandWritten: Bool,
                             unsafeMethods: Bool = false) -> Plan {
        let recordedRoute: Bool
        switch route.source {
        case .convention: recordedRoute = true
        case .manifest(let file, _): recordedRoute = file == StubsRecorder.manifestName
        case .runtime: return .skip("a runtime stub")
        }
        if !recordedRoute, !includeHandWritten { return .handWritten }
        guard case .only(let method) = route.method else { return .skip("it answers any method; there is no one request to send") }
        if !unsafeMethods, !safeMethods.contains(method) {
            return .skip("\(method) may change data on the API, and drift sends each request twice; --unsafe replays it")
        }
        let request: ConcreteRequest
        switch concreteRequest(for: route, secrets: secrets) {
        case .success(let r): request = r
        case .failure(let why): return .skip(why.reason)
        }
        guard let answer = route.responses.last else { return .skip("it has no answer") }
        if answer.fault != nil { return .skip("its answer is a fault, not something the API sent") }
        if answer.template != nil { return .skip("its answer is a template, rendered per request") }
        if answer.quotaStatus != nil { return .skip("its answer is made from stubd's own quotas") }
        if answer.status == 429 { return .skip("its answer is a 429: replaying it would mean using up the API's quota") }
        if let script = answer.webSocket {
            // The conversation as the folder's script has it, compared with the API's as JSON (DriftWebSocket).
            var replay = DriftRequest(route: route.description, source: route.source.description, request: request,
                                      recorded: DriftAnswer(status: .switchingProtocols, headers: [.contentType: "application/json"],
                                                            body: Data(DriftWebSocket.json(of: script).serialized.utf8)))
            replay.webSocket = script
            return .replay(replay)
        }
        var recorded = DriftAnswer(status: answer.status,
                                   headers: HTTPFields(answer.headers.filter { RecordingRules.keepsResponseHeader($0.name.canonicalName) }),
                                   body: answer.body)
        if let events = answer.events {
            if events.templates != nil { return .skip("its events are templates, rendered per request") }
            // The stream as the folder sends it, compared event by event with the API's (DriftEventStream).
            recorded.body = events.frames.reduce(into: Data()) { $0.append($1) }
            if recorded.header(.contentType) == nil { recorded.headers[.contentType] = "text/event-stream" }
        }
        return .replay(DriftRequest(route: route.description, source: route.source.description, request: request, recorded: recorded))
    }

    /// Why a route stands for no one request.
    package struct Unsendable: Error, Sendable { package let reason: String; init(_ reason: String) { self.reason = reason } }

    /// The request a route stands for, secrets put back; shared with `stubd export har`.
    package struct ConcreteRequest: Sendable {
        package let method: HTTPRequest.Method
        /// Paths to try in order, secrets put back: a convention file `users/1.json` answers both
        /// `/users/1` and `/users/1.json`, and its name does not say which one was recorded.
        package let paths: [String]
        /// `paths` as the folder shows them (`/api/{key}/items`), for the report: they never hold a secret.
        package let shownPaths: [String]
        package let query: [QueryItem]
        package let headers: HTTPFields
        package let body: Data
    }

    /// `route`'s one request (any method it answers alone), or why it has none: a `{param}`
    /// without a `--secret` value, a `**`, a `"*"` condition, a `contains` body. With
    /// `placeholders`, a `"*"` query or header without a `--secret` value is sent as `<NAME>`
    /// (an export shows the request; a drift run must send the real value).
    package static func concreteRequest(for route: Route, secrets: [NamedSecret], placeholders: Bool = false) -> Result<ConcreteRequest, Unsendable> {
        guard case .only(let method) = route.method else { return .failure(Unsendable("it answers any method; there is no one request to send")) }
        func secret(named name: String) -> String? {
            secrets.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        /// `<NAME>` back to the value, as the recording wrote it.
        func restored(_ text: String) -> String {
            secrets.reduce(text) { $0.replacingOccurrences(of: "<\($1.name)>", with: $1.value) }
        }
        var segments: [String] = []
        for segment in route.pattern.segments {
            switch segment {
            case .literal(let text): segments.append(text)
            case let .parameter(name, prefix, suffix):
                guard let value = secret(named: name) else {
                    return .failure(Unsendable("its path segment {\(name)} stands for any value; pass --secret \(name)=VALUE to replay it"))
                }
                segments.append(prefix + value + suffix)
            case .compound(let compound):
                var values: [String] = []
                for name in compound.names {
                    guard let value = secret(named: name) else {
                        return .failure(Unsendable("its path segment \(compound) has {\(name)}, which stands for any value; pass --secret \(name)=VALUE to replay it"))
                    }
                    values.append(value)
                }
                segments.append(compound.filled(with: values))
            case .wildcard: return .failure(Unsendable("its path ends in /**, which stands for many requests"))
            }
        }
        let path = "/" + segments.joined(separator: "/")
        var paths = [path]
        var shownPaths = [route.pattern.text]
        if let ext = route.pattern.optionalExtension, case .convention = route.source {
            paths.append(path + ext)
            shownPaths.append(route.pattern.text + ext)
        }

        var query: [QueryItem] = []
        for condition in route.conditions.query {
            switch condition.value {
            case .equals(let value): query.append(QueryItem(name: condition.name, value: restored(value)))
            case .oneOf(let values): query.append(QueryItem(name: condition.name, value: restored(values[0])))
            case .present:
                guard let value = secret(named: condition.name) ?? (placeholders ? "<\(condition.name)>" : nil) else {
                    return .failure(Unsendable("its query parameter \(condition.name) is \"*\" (any value, as a recording writes a secret); pass --secret \(condition.name)=VALUE to send one"))
                }
                query.append(QueryItem(name: condition.name, value: value))
            }
        }
        var headers = HTTPFields()
        for condition in route.conditions.headers {
            guard let name = HTTPField.Name(condition.name) else { return .failure(Unsendable("'\(condition.name)' is not a header name")) }
            switch condition.value {
            case .equals(let value): headers.append(HTTPField(name: name, value: restored(value)))
            case .oneOf(let values): headers.append(HTTPField(name: name, value: restored(values[0])))
            case .present:
                guard let value = secret(named: condition.name) ?? (placeholders ? "<\(condition.name)>" : nil) else {
                    return .failure(Unsendable("its header \(condition.name) is \"*\" (any value); pass --secret \(condition.name)=VALUE to send one"))
                }
                headers.append(HTTPField(name: name, value: value))
            }
        }
        var body = Data()
        switch route.conditions.body {
        case .json(let json)?:
            body = Data(restoredStrings(json, restored).serialized.utf8)
            if headers[.contentType] == nil { headers[.contentType] = "application/json" }
        case .contains?:
            return .failure(Unsendable("its body condition is 'contains', not a whole body to send"))
        case nil: break
        }

        return .success(ConcreteRequest(method: method, paths: paths, shownPaths: shownPaths, query: query, headers: headers, body: body))
    }

    /// Every string in `json` with `<NAME>` put back.
    private static func restoredStrings(_ json: JSONValue, _ restore: (String) -> String) -> JSONValue {
        switch json {
        case .string(let s): return .string(restore(s))
        case .array(let items): return .array(items.map { restoredStrings($0, restore) })
        case .object(let members): return .object(members.mapValues { restoredStrings($0, restore) })
        default: return json
        }
    }

    /// The request line as the report shows it: the folder's spelling of `paths[index]`, the query with its secrets masked.
    package func shown(_ index: Int = 0, secrets: SecretMasker) -> String {
        let q = request.query.map { "\($0.name)=\(secrets.mask($0.value ?? ""))" }.joined(separator: "&")
        return "\(request.method) \(request.shownPaths[index])" + (q.isEmpty ? "" : "?" + q)
    }
}
