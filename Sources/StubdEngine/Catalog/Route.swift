import Foundation

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
    /// Set on a resource's routes: the session's items answer instead of `responses`.
    package let resource: ResourceBinding?
    /// Set on a route that belongs to a scenario: the state it answers in and the state it moves to.
    /// Nil on every other route, which then pays one nil check for scenarios per request.
    package let scenario: ScenarioStep?
    /// `graphql: { operationName: … }`, kept apart from `conditions` so that matching passes over
    /// another operation's route with one string comparison (see `GraphQLOperationIndex`).
    package let graphQLOperation: String?

    package convenience init(name: String?, method: MethodMatch, pattern: PathPattern, conditions: RequestConditions = .init(),
                responses: [CannedResponse], cycle: Bool = false, times: Int? = nil, priority: Int, source: RouteSource,
                resource: ResourceBinding? = nil, scenario: ScenarioStep? = nil) {
        self.init(name: name, method: method, pattern: pattern, conditions: conditions, responses: responses, cycle: cycle,
                  times: times, priority: priority, source: source, index: 0, quotas: [], resource: resource, scenario: scenario)
    }

    private init(name: String?, method: MethodMatch, pattern: PathPattern, conditions: RequestConditions,
                 responses: [CannedResponse], cycle: Bool, times: Int?, priority: Int, source: RouteSource,
                 index: Int, quotas: [QuotaDefinition], resource: ResourceBinding?, scenario: ScenarioStep?) {
        self.resource = resource
        self.scenario = scenario
        self.name = name
        self.method = method
        self.pattern = pattern
        self.conditions = conditions
        graphQLOperation = conditions.graphQL?.operationName
        self.responses = responses
        self.cycle = cycle
        self.times = times
        self.priority = priority
        self.source = source
        self.index = index
        signature = conditions.graphQL.map { $0.signature(path: Route.shownPath(pattern)) } ?? "\(method) \(Route.shownPath(pattern))"
        key = name ?? signature
        quotaPlans = quotas.map { QuotaPlan($0, routeName: name, pattern: pattern) }
    }

    /// The same route as a catalog files it: at `index`, with the quotas covering it. The answers are
    /// shared, so a reload that keeps them keeps what the transport prepared of them.
    func placed(index: Int, quotas: [QuotaDefinition]) -> Route {
        Route(name: name, method: method, pattern: pattern, conditions: conditions, responses: responses, cycle: cycle,
              times: times, priority: priority, source: source, index: index, quotas: quotas,
              resource: resource, scenario: scenario)
    }

    /// The path as the route table, hit counts and messages show it: what clients call. A convention
    /// file's `.json` may be part of the URL (`/weather.json` is what Wunderground's clients ask
    /// for), so it is shown; `.sse` and `.ws` only say what the file holds, and no client calls
    /// `/v1/chat/completions.sse`, so `POST /v1/chat/completions` is shown (issue 62).
    static func shownPath(_ pattern: PathPattern) -> String {
        guard let ext = pattern.optionalExtension else { return pattern.text }
        return streamFormatExtensions.contains(ext.lowercased()) ? pattern.text : pattern.text + ext
    }

    /// Extensions that name a stub's format (an event stream, a WebSocket's script), never a URL's.
    static let streamFormatExtensions: Set<String> = [".sse", ".ws"]

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
        // An operation's route is answered by GET and POST alike (ANY), yet comes before a catch-all
        // `graphql.POST.json` on its path: its operation is the more specific condition.
        if (conditions.graphQL == nil) != (other.conditions.graphQL == nil) { return conditions.graphQL != nil }
        if (method == .any) != (other.method == .any) { return other.method == .any }
        if conditions.isEmpty != other.conditions.isEmpty { return !conditions.isEmpty }
        if source.tieRank != other.source.tieRank { return source.tieRank < other.source.tieRank }
        return index < other.index
    }
}
