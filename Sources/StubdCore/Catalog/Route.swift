import Foundation
import Synchronization

/// Where a route came from: shown in logs, the admin API and load errors.
public enum RouteSource: Sendable, Hashable, CustomStringConvertible {
    /// A file under the stubs root, served by the naming convention.
    case convention(file: String)
    /// A route in the manifest (`stubd.yml`).
    case manifest(file: String, line: Int)
    /// Added at run time through `POST /__stubd/stubs`.
    case runtime(id: String)

    public var description: String {
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
public enum MethodMatch: Sendable, Hashable, CustomStringConvertible {
    case any
    case only(String)

    public func accepts(_ method: String) -> Bool {
        switch self {
        case .any: return true
        case .only(let m): return m == method || (m == "GET" && method == "HEAD")
        }
    }

    public var description: String {
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
public struct RequestConditions: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case equals(String)
        /// `"*"`: present with any value.
        case present
    }
    public enum Body: Sendable, Hashable {
        /// The body parses as JSON equal to this value (key order and whitespace do not matter).
        case json(JSONValue)
        /// The body contains this text.
        case contains(String)
    }

    public var query: [(name: String, value: Value)] = []
    /// Header names are stored lower-cased: HTTP compares them case-insensitively.
    public var headers: [(name: String, value: Value)] = []
    public var body: Body?

    public init() {}

    public var isEmpty: Bool { query.isEmpty && headers.isEmpty && body == nil }

    public static func == (a: Self, b: Self) -> Bool {
        a.query.map { "\($0.name)=\($0.value)" } == b.query.map { "\($0.name)=\($0.value)" }
            && a.headers.map { "\($0.name)=\($0.value)" } == b.headers.map { "\($0.name)=\($0.value)" }
            && a.body == b.body
    }

    public func hash(into hasher: inout Hasher) {
        for q in query { hasher.combine(q.name); hasher.combine(q.value) }
        for h in headers { hasher.combine(h.name); hasher.combine(h.value) }
        hasher.combine(body)
    }
}

/// A delay before an answer is sent.
public enum Delay: Sendable, Hashable, CustomStringConvertible {
    case fixed(Duration)
    case uniform(Duration, Duration)
    case lognormal(median: Duration, sigma: Double)

    /// A sample, in nanoseconds.
    public func sample() -> UInt64 {
        switch self {
        case .fixed(let d): return d.nanoseconds
        case .uniform(let low, let high):
            let (a, b) = (low.nanoseconds, high.nanoseconds)
            return a >= b ? a : UInt64.random(in: a...b)
        case .lognormal(let median, let sigma):
            // Box-Muller: a standard normal sample, then exp(mu + sigma * z), with mu = ln(median).
            let u1 = Double.random(in: Double.ulpOfOne..<1), u2 = Double.random(in: 0..<1)
            let z = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
            let value = Double(median.nanoseconds) * exp(sigma * z)
            return UInt64(min(value, 3.6e12))
        }
    }

    public var description: String {
        switch self {
        case .fixed(let d): return d.shortDescription
        case .uniform(let a, let b): return "uniform \(a.shortDescription)–\(b.shortDescription)"
        case .lognormal(let m, let s): return "lognormal median \(m.shortDescription) sigma \(s)"
        }
    }
}

/// A transport-level failure to simulate instead of an answer.
public enum Fault: String, Sendable, Hashable, CaseIterable {
    /// An RST: the client sees "connection reset by peer".
    case connectionReset = "connection_reset"
    /// The connection closes before any byte is sent.
    case emptyResponse = "empty_response"
    /// Headers promise a body longer than what is sent before the connection closes.
    case truncatedBody = "truncated_body"
    /// 200 with a JSON content type and a body that does not parse.
    case malformedJSON = "malformed_json"
    /// No answer at all, until the client gives up or the server stops.
    case hang
}

/// An answer built once at load time and served many times.
public final class CannedResponse: Sendable {
    public let status: Int
    /// Every header but Content-Length and Date, which the transport adds.
    public let headers: [(name: String, value: String)]
    public let body: Data
    public let delay: Delay?
    public let fault: Fault?
    /// Dribble the body at this many bytes per second.
    public let bytesPerSecond: Int?
    /// Where the body came from, for the admin API.
    public let bodySource: String?

    /// The transport's prepared form of this answer (libmicrohttpd's response object), set once
    /// and never changed after. The core does not look inside.
    private let transportSlot = Atomic<UInt>(0)

    public var transportHandle: UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: transportSlot.load(ordering: .acquiring))
    }

    /// Sets the handle if none is set yet; returns the handle in force (this one or the earlier one).
    public func adoptTransportHandle(_ handle: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        let (exchanged, original) = transportSlot.compareExchange(expected: 0, desired: UInt(bitPattern: handle),
                                                                 ordering: .acquiringAndReleasing)
        return exchanged ? handle : UnsafeMutableRawPointer(bitPattern: original)!
    }

    public init(status: Int, headers: [(name: String, value: String)], body: Data,
                delay: Delay? = nil, fault: Fault? = nil, bytesPerSecond: Int? = nil, bodySource: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.fault = fault
        self.bytesPerSecond = bytesPerSecond
        self.bodySource = bodySource
    }

    /// Served as-is from a prepared transport object: no per-request headers, delay, fault or throttle.
    public var isStatic: Bool { delay == nil && fault == nil && bytesPerSecond == nil }
}

/// A counter that can be carried from one catalog to the next when a route survives a reload.
public final class HitCounter: Sendable {
    let value = Atomic<Int>(0)
    public init() {}
    public var count: Int { value.load(ordering: .relaxed) }
    @discardableResult func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
    func reset() { value.store(0, ordering: .relaxed) }
}

/// A request pattern and what to answer: one file of the convention, one manifest route, or one runtime stub.
public final class Route: @unchecked Sendable, CustomStringConvertible {
    public let name: String?
    public let method: MethodMatch
    public let pattern: PathPattern
    public let conditions: RequestConditions
    /// Served in order; the last repeats unless `cycle` is set.
    public let responses: [CannedResponse]
    public let cycle: Bool
    /// After this many answers the route steps aside and the next matching route answers.
    public let times: Int?
    /// Lower wins. Defaults: runtime stubs 1, manifest routes 5, convention files 10.
    public let priority: Int
    public let source: RouteSource
    /// Position in the catalog, for stable ordering.
    public internal(set) var order: Int = 0
    /// The default session's counter, set before the catalog is published (see `StubEngine.install`).
    public internal(set) var defaultCounter = HitCounter()
    /// The quotas whose selectors cover this route, set before the route is published.
    public internal(set) var quotas: [QuotaDefinition] {
        get { quotaPlans.map(\.quota) }
        set { quotaPlans = newValue.map { QuotaPlan($0, for: self) } }
    }
    /// One per quota: how a request on this route finds its key (see `QuotaPlan`).
    private(set) var quotaPlans: [QuotaPlan] = []
    /// The default session's ledger for each of `quotaPlans`, hung here like `defaultCounter`
    /// so a request finds it without a lookup (see `SessionState.adopt`).
    var defaultLedgers: [QuotaLedger] = []
    /// For plans whose key is the same on every request: that key's cell in `defaultLedgers`.
    var defaultCells: [KeyCell?] = []
    /// Set when the route has one quota whose key is fixed: the default session's cell for it, so a
    /// request is charged without the general loop (see `StubEngine.answer`).
    var defaultSoleQuota: SoleQuota?

    public init(name: String?, method: MethodMatch, pattern: PathPattern, conditions: RequestConditions = .init(),
                responses: [CannedResponse], cycle: Bool = false, times: Int? = nil, priority: Int, source: RouteSource) {
        self.name = name
        self.method = method
        self.pattern = pattern
        self.conditions = conditions
        self.responses = responses
        self.cycle = cycle
        self.times = times
        self.priority = priority
        self.source = source
        let shown = pattern.optionalExtension.map { pattern.text + $0 } ?? pattern.text
        signature = "\(method) \(shown)"
        key = name ?? signature
    }

    /// `GET /api/{key}/conditions/q/CA/{city}.json`
    public let signature: String

    /// How hits, sequences and quotas find this route again after a reload: its name, or its signature.
    public let key: String

    public var description: String { name.map { "\($0) (\(signature))" } ?? signature }

    /// Needs per-request state (a sequence position or a use count), so it cannot be a pure lookup.
    var isStateful: Bool { responses.count > 1 || times != nil }

    func outranks(_ other: Route) -> Bool {
        if priority != other.priority { return priority < other.priority }
        if let moreSpecific = pattern.isMoreSpecific(than: other.pattern) { return moreSpecific }
        if (method == .any) != (other.method == .any) { return other.method == .any }
        if conditions.isEmpty != other.conditions.isEmpty { return !conditions.isEmpty }
        if source.tieRank != other.source.tieRank { return source.tieRank < other.source.tieRank }
        return order < other.order
    }
}

extension Duration {
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    var shortDescription: String {
        let ns = nanoseconds
        if ns % 1_000_000_000 == 0 { return "\(ns / 1_000_000_000)s" }
        if ns % 1_000_000 == 0 { return "\(ns / 1_000_000)ms" }
        return "\(Double(ns) / 1e6)ms"
    }
}
