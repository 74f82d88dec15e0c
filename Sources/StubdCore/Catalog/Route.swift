import Foundation
import StubdProtocol
import Synchronization

/// Where a route came from: shown in logs, the admin API and load errors.
package enum RouteSource: Sendable, Hashable, CustomStringConvertible {
    /// A file under the stubs root, served by the naming convention.
    case convention(file: String)
    /// A route in the manifest (`stubd.yml`).
    case manifest(file: String, line: Int)
    /// Added at run time through `POST /__stubd/stubs`.
    case runtime(id: String)

    package var description: String {
        switch self {
        case .convention(let file): return file
        case .manifest(let file, let line): return "\(file):\(line)"
        case .runtime(let id): return "runtime stub \(id)"
        }
    }

    /// Ties between equal priorities and specificities: runtime stubs, then manifest, then files.
    var tieRank: Int {
        switch self {
        case .runtime: return 0
        case .manifest: return 1
        case .convention: return 2
        }
    }
}

/// Which methods a route answers. `GET` routes answer `HEAD` too.
package enum MethodMatch: Sendable, Hashable, CustomStringConvertible {
    case any
    case only(String)

    package func accepts(_ method: String) -> Bool {
        switch self {
        case .any: return true
        case .only(let m): return m == method || (m == "GET" && method == "HEAD")
        }
    }

    package var description: String {
        switch self {
        case .any: return "ANY"
        case .only(let m): return m
        }
    }

    var allowed: [String] {
        switch self {
        case .any: return []
        case .only("GET"): return ["GET", "HEAD"]
        case .only(let m): return [m]
        }
    }
}

/// What a manifest route asks of a request beyond its method and path.
package struct RequestConditions: Sendable, Hashable {
    package enum Value: Sendable, Hashable, CustomStringConvertible {
        case equals(String)
        /// `[London, "London,GB"]`: equal to any one of these.
        case oneOf([String])
        /// `"*"`: present with any value.
        case present

        func accepts(_ value: String) -> Bool {
            switch self {
            case .equals(let want): return value == want
            case .oneOf(let wants): return wants.contains(value)
            case .present: return true
            }
        }

        package var description: String {
            switch self {
            case .equals(let want): return "'\(want)'"
            case .oneOf(let wants): return "one of " + wants.map { "'\($0)'" }.joined(separator: ", ")
            case .present: return "present"
            }
        }
    }
    package enum Body: Sendable, Hashable {
        /// The body parses as JSON equal to this value (key order and whitespace do not matter).
        case json(JSONValue)
        /// The body contains this text.
        case contains(String)
    }

    package var query: [(name: String, value: Value)] = []
    /// `queryNames: any-case`: `APPID` satisfies `appid`, as OpenWeatherMap allows. Names in `query`
    /// are then stored lower-cased. Values are always compared exactly.
    package var queryNamesIgnoreCase = false
    /// Header names are stored lower-cased: HTTP compares them case-insensitively.
    package var headers: [(name: String, value: Value)] = []
    package var body: Body?

    package init() {}

    package var isEmpty: Bool { query.isEmpty && headers.isEmpty && body == nil }

    package static func == (a: Self, b: Self) -> Bool {
        a.query.map { "\($0.name)=\($0.value)" } == b.query.map { "\($0.name)=\($0.value)" }
            && a.queryNamesIgnoreCase == b.queryNamesIgnoreCase
            && a.headers.map { "\($0.name)=\($0.value)" } == b.headers.map { "\($0.name)=\($0.value)" }
            && a.body == b.body
    }

    package func hash(into hasher: inout Hasher) {
        for q in query { hasher.combine(q.name); hasher.combine(q.value) }
        hasher.combine(queryNamesIgnoreCase)
        for h in headers { hasher.combine(h.name); hasher.combine(h.value) }
        hasher.combine(body)
    }
}

/// An answer built once at load time and served many times.
package final class CannedResponse: Sendable {
    package let status: Int
    /// Every header but Content-Length and Date, which the transport adds.
    package let headers: [(name: String, value: String)]
    package let body: Data
    package let delay: Delay?
    package let fault: Fault?
    /// Dribble the body at this many bytes per second.
    package let bytesPerSecond: Int?
    /// Where the body came from, for the admin API.
    package let bodySource: String?
    /// `quotaStatus: github`: answered per request with the session's live quotas, in the shape of
    /// GitHub's `GET /rate_limit`, instead of `body`.
    package let quotaStatus: QuotaStatusStyle?
    /// `template: true`: the body and headers are rendered per request (see `ResponseTemplate`).
    package let template: ResponseTemplate?
    /// Where this answer sits in its catalog (`StubCatalog.responses`): the transport keeps its
    /// prepared form of each answer under this. Nil for a runtime stub's answers.
    package let slot: ResponseSlot?

    package convenience init(status: Int, headers: [(name: String, value: String)], body: Data,
                delay: Delay? = nil, fault: Fault? = nil, bytesPerSecond: Int? = nil, bodySource: String? = nil,
                quotaStatus: QuotaStatusStyle? = nil, template: ResponseTemplate? = nil) {
        self.init(status: status, headers: headers, body: body, delay: delay, fault: fault, bytesPerSecond: bytesPerSecond,
                  bodySource: bodySource, quotaStatus: quotaStatus, template: template, slot: nil)
    }

    private init(status: Int, headers: [(name: String, value: String)], body: Data, delay: Delay?, fault: Fault?,
                 bytesPerSecond: Int?, bodySource: String?, quotaStatus: QuotaStatusStyle?, template: ResponseTemplate?,
                 slot: ResponseSlot?) {
        self.template = template
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.fault = fault
        self.bytesPerSecond = bytesPerSecond
        self.bodySource = bodySource
        self.quotaStatus = quotaStatus
        self.slot = slot
    }

    /// The same answer, filed at `slot` of a catalog being built (the body is shared, not copied).
    func placed(at slot: ResponseSlot) -> CannedResponse {
        CannedResponse(status: status, headers: headers, body: body, delay: delay, fault: fault,
                       bytesPerSecond: bytesPerSecond, bodySource: bodySource, quotaStatus: quotaStatus, template: template,
                       slot: slot)
    }

    /// A template's answer for one request: this one's status, delay, fault and throttle, with the
    /// rendered body and headers, outside any catalog (the transport makes it a one-off response).
    func rendered(body: Data, headers: [(name: String, value: String)]) -> CannedResponse {
        CannedResponse(status: status, headers: headers, body: body, delay: delay, fault: fault,
                       bytesPerSecond: bytesPerSecond, bodySource: bodySource, quotaStatus: nil, template: nil, slot: nil)
    }

    /// Served as-is from a prepared transport object: no per-request headers, delay, fault or throttle.
    package var isStatic: Bool { delay == nil && fault == nil && bytesPerSecond == nil && quotaStatus == nil }
}

/// An answer's place: which catalog (`StubCatalog.generation`) and where in its `responses`.
package struct ResponseSlot: Sendable, Hashable {
    package let generation: UInt64
    package let index: Int
}

/// A counter that can be carried from one catalog to the next when a route survives a reload.
package final class HitCounter: Sendable {
    let value = Atomic<Int>(0)
    package init() {}
    package var count: Int { value.load(ordering: .relaxed) }
    @discardableResult func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
    func reset() { value.store(0, ordering: .relaxed) }
}

/// A request pattern and what to answer: one file of the convention, one manifest route, or one
/// runtime stub. Immutable: what a session counts about a route lives in the session
/// (`SessionState`), found by the route's `index`.
public final class Route: Sendable, CustomStringConvertible {
    /// The manifest's `name:`, when it has one.
    public let name: String?
    package let method: MethodMatch
    package let pattern: PathPattern
    package let conditions: RequestConditions
    /// Served in order; the last repeats unless `cycle` is set.
    package let responses: [CannedResponse]
    package let cycle: Bool
    /// After this many answers the route steps aside and the next matching route answers.
    package let times: Int?
    /// Lower wins. Defaults: runtime stubs 1, manifest routes 5, convention files 10.
    package let priority: Int
    package let source: RouteSource
    /// Position in its catalog (`StubCatalog.routes`), for declaration order and for a session's
    /// per-route state. A runtime stub's is negative and falls as stubs are added, so the newest wins ties.
    package let index: Int
    /// One per quota whose selectors cover this route: how a request on it finds its key (see `QuotaPlan`).
    let quotaPlans: [QuotaPlan]

    package convenience init(name: String?, method: MethodMatch, pattern: PathPattern, conditions: RequestConditions = .init(),
                responses: [CannedResponse], cycle: Bool = false, times: Int? = nil, priority: Int, source: RouteSource) {
        self.init(name: name, method: method, pattern: pattern, conditions: conditions, responses: responses, cycle: cycle,
                  times: times, priority: priority, source: source, index: 0, quotas: [])
    }

    private init(name: String?, method: MethodMatch, pattern: PathPattern, conditions: RequestConditions,
                 responses: [CannedResponse], cycle: Bool, times: Int?, priority: Int, source: RouteSource,
                 index: Int, quotas: [QuotaDefinition]) {
        self.name = name
        self.method = method
        self.pattern = pattern
        self.conditions = conditions
        self.responses = responses
        self.cycle = cycle
        self.times = times
        self.priority = priority
        self.source = source
        self.index = index
        let shown = pattern.optionalExtension.map { pattern.text + $0 } ?? pattern.text
        signature = "\(method) \(shown)"
        key = name ?? signature
        quotaPlans = quotas.map { QuotaPlan($0, routeName: name, pattern: pattern) }
    }

    /// The same route as a catalog files it: at `index`, with the quotas covering it, and its answers
    /// at their slots (`firstSlot` and on).
    func placed(index: Int, quotas: [QuotaDefinition], firstSlot: ResponseSlot?) -> Route {
        let answers = firstSlot.map { first in
            responses.enumerated().map { $1.placed(at: ResponseSlot(generation: first.generation, index: first.index + $0)) }
        } ?? responses
        return Route(name: name, method: method, pattern: pattern, conditions: conditions, responses: answers, cycle: cycle,
                     times: times, priority: priority, source: source, index: index, quotas: quotas)
    }

    /// The quotas whose selectors cover this route.
    package var quotas: [QuotaDefinition] { quotaPlans.map(\.quota) }

    /// `GET /api/{key}/conditions/q/CA/{city}.json`
    public let signature: String

    /// How hits, sequences and quotas find this route again after a reload: its name, or its signature.
    package let key: String

    public var description: String { name.map { "\($0) (\(signature))" } ?? signature }

    /// Needs per-request state (a sequence position or a use count), so it cannot be a pure lookup.
    var isStateful: Bool { responses.count > 1 || times != nil }

    func outranks(_ other: Route) -> Bool {
        if priority != other.priority { return priority < other.priority }
        if let moreSpecific = pattern.isMoreSpecific(than: other.pattern) { return moreSpecific }
        if (method == .any) != (other.method == .any) { return other.method == .any }
        if conditions.isEmpty != other.conditions.isEmpty { return !conditions.isEmpty }
        if source.tieRank != other.source.tieRank { return source.tieRank < other.source.tieRank }
        return index < other.index
    }
}
