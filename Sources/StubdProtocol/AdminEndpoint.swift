public import HTTPTypes

/// One call of the admin API under `/__stubd/`: the server routes on it and `StubdClient` builds its
/// requests from it, so a call's method and path are written here once (docs/admin-api.yaml
/// documents each).
public enum AdminEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// `GET /__stubd/health` (HEAD too): version, routes, folder and fingerprint; open without a token.
    case health
    /// `GET /__stubd/routes`: the catalog's routes.
    case routes
    /// `GET /__stubd/sessions`: every session the server holds.
    case sessions
    /// `GET /__stubd/hits`: hit counts, or one route's with `?route=` or `?path=`.
    case hits
    /// `GET /__stubd/hits/wait`: held until a route has `?count=` hits, or `?timeout=` seconds pass.
    case waitForHits
    /// `GET /__stubd/coverage`: which answers, behaviours and quota states requests reached.
    case coverage
    /// `GET /__stubd/contract`: the spec `serve --spec` loaded.
    case contract
    /// `GET /__stubd/prefer`: the `Prefer` value the session's requests are matched with.
    case preference
    /// `PUT /__stubd/prefer`.
    case setPreference
    /// `DELETE /__stubd/prefer`.
    case clearPreference
    /// `GET /__stubd/requests`: the session's journal.
    case requests
    /// `POST /__stubd/reset`: the session back to its start.
    case reset
    /// `GET /__stubd/resources`: each resource with how many items the session holds.
    case resources
    /// `GET /__stubd/resources/{name}`: a stateful resource's items.
    case resourceItems(String)
    /// `PUT /__stubd/resources/{name}`: replaces them.
    case replaceResourceItems(String)
    /// `GET /__stubd/scenarios`: each scenario's state in the session.
    case scenarios
    /// `POST /__stubd/scenarios/reset`: every scenario back to its first state.
    case resetScenarios
    /// `GET /__stubd/scenarios/{name}`: one scenario, with each key's state when it is keyed.
    case scenario(String)
    /// `PUT /__stubd/scenarios/{name}`: moves one (or one key of it) to a state.
    case setScenario(String)
    /// `GET /__stubd/stubs`: the session's runtime stubs.
    case runtimeStubs
    /// `POST /__stubd/stubs`: adds one.
    case addStub
    /// `DELETE /__stubd/stubs/{id}`: removes one.
    case removeStub(id: String)
    /// `GET /__stubd/quotas`: how each quota's keys stand (paged).
    case quotas
    /// `POST /__stubd/quotas/reset`.
    case resetQuotas
    /// `PUT /__stubd/quotas/{name}`: sets what a key has used.
    case fillQuota(String)
    /// `GET /__stubd/clock`.
    case clock
    /// `POST /__stubd/clock/advance`.
    case advanceClock
    /// `POST /__stubd/clock/set`.
    case setClock
    /// `GET /__stubd/streams/wait`: held until a streaming route has sent `?count=` events or messages
    /// (`?of=sent`), the app has sent that many on a WebSocket (`of=received`), or that many are open.
    case waitForStream
    /// `GET /__stubd/websockets`: the session's WebSocket routes, their open sockets and message counts.
    case webSockets
    /// `GET /__stubd/websockets/{name}/messages`: what the app sent on a WebSocket route (`?after=N`).
    case webSocketMessages(String)
    /// `POST /__stubd/websockets/{name}/messages`: a message to every socket of the route open in the session.
    case pushWebSocketMessage(String)
    /// `GET /__stubd/events`: the dashboard's event stream.
    case events
    /// `GET /__stubd/ui` and the files under it ("" for the page).
    case dashboard(file: String)

    /// Every call, with `{name}` and `{id}` standing for their values: the 404 for an unknown call lists them.
    public static let every: [AdminEndpoint] = [
        .health, .routes, .sessions, .hits, .waitForHits, .coverage, .contract, .preference, .setPreference, .clearPreference,
        .requests, .reset, .resources, .resourceItems("{name}"), .replaceResourceItems("{name}"), .scenarios, .resetScenarios,
        .scenario("{name}"), .setScenario("{name}"), .runtimeStubs, .addStub,
        .removeStub(id: "{id}"), .quotas, .resetQuotas, .fillQuota("{name}"), .clock, .advanceClock, .setClock,
        .waitForStream, .webSockets, .webSocketMessages("{name}"), .pushWebSocketMessage("{name}"), .events,
        .dashboard(file: ""),
    ]

    /// The call's paths, each once, as the 404 for an unknown call lists them.
    public static let listing = every.reduce(into: [String]()) { paths, endpoint in
        if !paths.contains(endpoint.path) { paths.append(endpoint.path) }
    }.joined(separator: ", ")

    /// The method the call is made with.
    public var method: HTTPRequest.Method {
        switch self {
        case .reset, .resetScenarios, .addStub, .resetQuotas, .advanceClock, .setClock, .pushWebSocketMessage: .post
        case .setPreference, .replaceResourceItems, .setScenario, .fillQuota: .put
        case .clearPreference, .removeStub: .delete
        case .health, .routes, .sessions, .hits, .waitForHits, .coverage, .contract, .preference, .requests,
             .resources, .resourceItems, .scenarios, .scenario, .runtimeStubs, .quotas, .clock, .waitForStream, .webSockets, .webSocketMessages, .events, .dashboard: .get
        }
    }

    /// The path under `/__stubd/`.
    public var path: String {
        switch self {
        case .health: "health"
        case .routes: "routes"
        case .sessions: "sessions"
        case .hits: "hits"
        case .waitForHits: "hits/wait"
        case .coverage: "coverage"
        case .contract: "contract"
        case .preference, .setPreference, .clearPreference: "prefer"
        case .requests: "requests"
        case .reset: "reset"
        case .resources: "resources"
        case .resourceItems(let name), .replaceResourceItems(let name): "resources/" + name
        case .scenarios: "scenarios"
        case .resetScenarios: "scenarios/reset"
        case .scenario(let name), .setScenario(let name): "scenarios/" + name
        case .runtimeStubs, .addStub: "stubs"
        case .removeStub(let id): "stubs/" + id
        case .quotas: "quotas"
        case .resetQuotas: "quotas/reset"
        case .fillQuota(let name): "quotas/" + name
        case .clock: "clock"
        case .advanceClock: "clock/advance"
        case .setClock: "clock/set"
        case .waitForStream: "streams/wait"
        case .webSockets: "websockets"
        case .webSocketMessages(let name), .pushWebSocketMessage(let name): "websockets/" + name + "/messages"
        case .events: "events"
        case .dashboard(let file): file.isEmpty ? "ui" : "ui/" + file
        }
    }

    /// `METHOD /__stubd/path`, as an error names the call.
    public var description: String { "\(method) /__stubd/\(path)" }

    /// The call a request makes, from its method and its path under `/__stubd/`; nil when it is none.
    /// The dashboard's page and stream are theirs whatever the method (they answer a wrong one with a 405).
    public init?(method: HTTPRequest.Method, call: String) {
        if call == "events" { self = .events; return }
        if call == "ui" || call.hasPrefix("ui/") { self = .dashboard(file: String(call.dropFirst(3))); return }
        // A WebSocket route's name may be its signature, slashes and all (`GET /rooms/lobby`): the name
        // is everything between `websockets/` and `/messages`.
        if call.hasPrefix("websockets/"), call.hasSuffix("/messages"), call.count > "websockets//messages".count {
            let name = String(call.dropFirst("websockets/".count).dropLast("/messages".count))
            switch method {
            case .get: self = .webSocketMessages(name); return
            case .post: self = .pushWebSocketMessage(name); return
            default: return nil
            }
        }
        // Empty segments are skipped: `hits/` and `hits` are the same call.
        let parts = call.split(separator: "/").map(String.init)
        guard let first = parts.first, parts.count <= 2 else { return nil }
        let second = parts.count == 2 ? parts[1] : nil
        switch (method, first, second) {
        case (.get, "health", nil), (.head, "health", nil): self = .health
        case (.get, "routes", nil): self = .routes
        case (.get, "sessions", nil): self = .sessions
        case (.get, "hits", nil): self = .hits
        case (.get, "hits", "wait"): self = .waitForHits
        case (.get, "coverage", nil): self = .coverage
        case (.get, "contract", nil): self = .contract
        case (.get, "prefer", nil): self = .preference
        case (.put, "prefer", nil): self = .setPreference
        case (.delete, "prefer", nil): self = .clearPreference
        case (.get, "requests", nil): self = .requests
        case (.post, "reset", nil): self = .reset
        case (.get, "resources", nil): self = .resources
        case (.get, "resources", let name?): self = .resourceItems(name)
        case (.put, "resources", let name?): self = .replaceResourceItems(name)
        case (.get, "scenarios", nil): self = .scenarios
        case (.post, "scenarios", "reset"): self = .resetScenarios
        case (.get, "scenarios", let name?): self = .scenario(name)
        case (.put, "scenarios", let name?): self = .setScenario(name)
        case (.get, "stubs", nil): self = .runtimeStubs
        case (.post, "stubs", nil): self = .addStub
        case (.delete, "stubs", let id?): self = .removeStub(id: id)
        case (.get, "quotas", nil): self = .quotas
        case (.post, "quotas", "reset"): self = .resetQuotas
        case (.put, "quotas", let name?): self = .fillQuota(name)
        case (.get, "clock", nil): self = .clock
        case (.post, "clock", "advance"): self = .advanceClock
        case (.post, "clock", "set"): self = .setClock
        case (.get, "streams", "wait"): self = .waitForStream
        case (.get, "websockets", nil): self = .webSockets
        default: return nil
        }
    }

    /// The methods a path under `/__stubd/` takes: empty when it is no call at all. A 405's `Allow`.
    public static func methods(call: String) -> [HTTPRequest.Method] {
        [.get, .head, .post, .put, .delete].filter { AdminEndpoint(method: $0, call: call) != nil }
    }
}
