import Foundation

/// `GET /__stubd/coverage`, `stubd coverage --format json` and `serve --coverage-out`: which answers,
/// network behaviours and quota states of the Stubs folder the requests so far reached. The whole
/// document is plain counts, so reports of CI shards add up (`merged`) to the report of one run.
public struct CoverageReport: Sendable, Equatable, Codable {
    /// One route of the catalog and the things on it a test can reach.
    public struct Route: Sendable, Equatable, Codable {
        /// The route's name, or its signature when it has none (as hit counts key it).
        public let route: String
        /// `GET /api/{key}/conditions/q/CA/{city}.json`
        public let signature: String
        /// Where the route is defined: `stubd.yml:42`, a stub file's path, or `runtime stub s3`.
        public let source: String
        /// Requests the route answered.
        public var hits: Int
        /// What there is to reach on it: each answer, and each state of each quota that counts it.
        public var items: [Item]
        /// A route's entry with the counts given (the server counts them; `merged(_:)` adds them up).
        public init(route: String, signature: String, source: String, hits: Int, items: [Item]) {
            self.route = route; self.signature = signature; self.source = source; self.hits = hits; self.items = items
        }
    }

    /// One thing to cover: an answer of the route (a sequence step, with its status and network
    /// behaviour), or one state of a quota on the route; in a scenario's entry, a state it can be in
    /// or a move between two.
    public struct Item: Sendable, Equatable, Codable {
        /// What an item stands for: one of the route's answers, or one state of a quota on it.
        public enum Kind: String, Sendable, Equatable, Codable {
            /// One of the route's answers (a sequence step when it has several).
            case answer
            /// Accepted by `quota` (under its limits).
            case underLimit = "under-limit"
            /// Refused by `quota` (the 429, or what its profile answers).
            case exceeded
            /// Accepted by `quota` again after a refusal, once its window passed on the clock.
            case resetByClock = "reset-by-clock"
            /// A state of a scenario (other than `Started`, where every session begins), entered by a
            /// route's `thenState:`, a timed move or the admin API.
            case state
            /// A move of a scenario: a route's `thenState:` (out of its `whenState:`, or out of any
            /// state), or a timed move (`scenarios: { x: { moves: […] } }`).
            case transition
            /// One reply of a WebSocket script: a client message it matched.
            case reply
            /// An event stream sent every event before its ending (ran to its end).
            case events
        }
        /// An answer, or which state of a quota.
        public let kind: Kind
        /// Stable within its route, and what merging matches on: `answer 2`, `quota wunderground exceeded`.
        public let id: String
        /// What a person reads: `answer 2 of 3 (503, fault connection_reset)`, `429 of quota wunderground`.
        public let title: String
        /// 1-based position among the route's answers.
        public let step: Int?
        /// The status the client saw.
        public let status: Int?
        /// `delay 200ms`, `fault connection_reset`, `hang`, `throttle 1024 B/s`: what the transport
        /// did besides answering.
        public let behaviours: [String]?
        /// For a quota item, the quota's name; nil for an answer.
        public let quota: String?
        /// For a scenario's state item, the state.
        public let state: String?
        /// For a scenario's transition, the state it moves out of; nil for a route with no
        /// `whenState:`, which moves out of any state.
        public let from: String?
        /// For a scenario's transition, the state it moves into.
        public let to: String?
        /// Requests that reached it; 0 means not covered.
        public var hits: Int
        /// How a test reaches it.
        public let hint: String
        /// For `events`: how many events the stream has.
        public let events: Int?
        /// For `events`: the most events one stream sent (merged reports keep the largest).
        public var eventsSent: Int?

        /// An item with the fields given: `step`, `status` and `behaviours` describe an answer, `quota` a quota
        /// state, `state` a scenario's state, `from` and `to` a scenario's transition.
        public init(kind: Kind, id: String, title: String, step: Int? = nil, status: Int? = nil, behaviours: [String]? = nil,
                    quota: String? = nil, state: String? = nil, from: String? = nil, to: String? = nil, hits: Int, hint: String,
                    events: Int? = nil, eventsSent: Int? = nil) {
            self.kind = kind; self.id = id; self.title = title; self.step = step; self.status = status
            self.behaviours = behaviours; self.quota = quota; self.state = state; self.from = from; self.to = to
            self.hits = hits; self.hint = hint
            self.events = events; self.eventsSent = eventsSent
        }

        /// True once a request reached it (`hits > 0`).
        public var isCovered: Bool { hits > 0 }
    }

    /// How many items there are and how many were reached.
    public struct Summary: Sendable, Equatable, Codable {
        /// Things to cover: every route's items, plus each documented status of each spec operation.
        public let items: Int
        /// Of `items`, how many requests reached.
        public let covered: Int
        /// 0–100, one decimal; 100 when there is nothing to cover.
        public let percent: Double
        /// Routes in the catalog (runtime stubs are not counted).
        public let routes: Int
        /// Routes with at least one hit.
        public let routesHit: Int
        /// Counts as given; `percent` is worked out from `items` and `covered`.
        public init(items: Int, covered: Int, routes: Int, routesHit: Int) {
            self.items = items; self.covered = covered; self.routes = routes; self.routesHit = routesHit
            percent = items == 0 ? 100 : (Double(covered) * 1000 / Double(items)).rounded(.down) / 10
        }
    }

    /// A scenario of the catalog (routes' `scenario:`): the states it can be in and the moves
    /// between them that its routes and timed moves declare, each an item with how many times a
    /// session entered it or took it. A keyed scenario is counted as one, whatever its keys.
    public struct Scenario: Sendable, Equatable, Codable {
        /// Its name, as routes give it in `scenario:`.
        public let scenario: String
        /// For a keyed scenario (`scenarioKey:`), the request value it keeps a state per: `path id`.
        public let keyedBy: String?
        /// For a keyed scenario, how many times a key left `Started` (over every session counted).
        public var keys: Int?
        /// Each state but `Started` (every session begins there), then each transition.
        public var items: [Item]
        /// A scenario's entry as given.
        public init(scenario: String, keyedBy: String? = nil, keys: Int? = nil, items: [Item]) {
            self.scenario = scenario; self.keyedBy = keyedBy; self.keys = keys; self.items = items
        }
        /// How the table, JUnit and CTRF name it, and what `except:` takes for all of it: `scenario cart`.
        public var label: String { "scenario \(scenario)" }
    }

    /// One network behaviour over the whole catalog: how many answers have it, how many were sent.
    public struct Behaviour: Sendable, Equatable, Codable {
        /// `delay`, `fault connection_reset`, `hang`, `throttle`.
        public let behaviour: String
        /// Answers in the catalog that have this behaviour.
        public let answers: Int
        /// Of `answers`, how many were sent at least once.
        public let covered: Int
        /// A behaviour's tally as given.
        public init(behaviour: String, answers: Int, covered: Int) {
            self.behaviour = behaviour; self.answers = answers; self.covered = covered
        }
    }

    /// An operation of the spec `serve --spec` loaded, and which of the statuses it documents stubd
    /// answered for it (through any route that answers for the operation). Each documented status is
    /// an item of the summary, so `--fail-under` and the assertions count them.
    public struct Operation: Sendable, Equatable, Codable {
        /// How many of an operation's documented statuses stubd answered.
        public enum State: String, Sendable, Equatable, Codable {
            /// None of its documented statuses answered.
            case empty
            /// Some of its documented statuses answered, not all.
            case partial
            /// Every documented status answered (or, with none documented but `default`/`4XX`, any answer).
            case full
        }
        /// How a test reaches one documented status that was not answered.
        public struct Hint: Sendable, Equatable, Codable {
            /// A status the spec documents for the operation.
            public let status: Int
            /// What a test does to see that status: which stub to write, or which request to send.
            public let hint: String
            /// A hint for `status`.
            public init(status: Int, hint: String) { self.status = status; self.hint = hint }
        }
        /// `GET /users/{id}`
        public let operation: String
        /// The statuses the spec lists for it by number (`4XX` and `default` name no one status to aim at).
        public let documented: [Int]
        /// Statuses stubd answered for it, documented or not.
        public var answered: [Int]
        /// `empty`, `partial` or `full`, as `state(documented:answered:)` works it out.
        public var state: State
        /// The routes that answer for it (their names, as `routes` has them).
        public var routes: [String]?
        /// For each documented status not answered.
        public var hints: [Hint]?

        /// An operation's entry as given; `state` should be what `state(documented:answered:)` says.
        public init(operation: String, documented: [Int], answered: [Int], state: State, routes: [String]? = nil, hints: [Hint]? = nil) {
            self.operation = operation; self.documented = documented; self.answered = answered; self.state = state
            self.routes = routes; self.hints = hints
        }

        /// `full` when every documented status was answered (with none documented, when any answer was),
        /// `empty` when none was, `partial` otherwise.
        public static func state(documented: [Int], answered: [Int]) -> State {
            let reached = Set(answered).intersection(documented).count
            if documented.isEmpty { return answered.isEmpty ? .empty : .full }
            return reached == 0 ? .empty : reached == Set(documented).count ? .full : .partial
        }

        /// Documented statuses not answered, in the spec's order.
        public var unanswered: [Int] { documented.filter { !answered.contains($0) } }

        /// The hint for a documented status that was not answered, or a general one when `hints` has none.
        public func hint(for status: Int) -> String {
            hints?.first { $0.status == status }?.hint ?? "make a stub answer \(status) for \(operation), and send a request that gets it"
        }
    }

    /// The session reported on; nil for the whole server (every session, since it started).
    public var session: String?
    /// Items and routes, and how many were reached: what `stubd coverage --fail-under` compares.
    public var summary: Summary
    /// Every route of the catalog, with its items (runtime stubs are not counted).
    public var routes: [Route]
    /// Each network behaviour (`delay`, a fault, `hang`, `throttle`) over all answers, by name.
    public var behaviours: [Behaviour]
    /// Nil when no spec is loaded.
    public var operations: [Operation]?
    /// The catalog's scenarios, by name, with the states reached and transitions taken; nil when none.
    public var scenarios: [Scenario]?

    /// A report of `routes` (and of the spec's `operations`); `summary` and `behaviours` are worked out from them.
    public init(session: String?, routes: [Route], operations: [Operation]? = nil, scenarios: [Scenario]? = nil) {
        self.session = session
        self.routes = routes
        self.operations = operations
        self.scenarios = scenarios
        summary = Self.summarize(routes, operations, scenarios)
        behaviours = Self.behaviours(of: routes)
    }

    /// Every item with no hits, with its route: what a test suite has not reached.
    public var uncovered: [(route: Route, item: Item)] {
        routes.flatMap { route in route.items.filter { !$0.isCovered }.map { (route, $0) } }
    }

    /// Every scenario state never entered and transition never taken, with its scenario.
    public var uncoveredScenarioItems: [(scenario: Scenario, item: Item)] {
        (scenarios ?? []).flatMap { scenario in scenario.items.filter { !$0.isCovered }.map { (scenario, $0) } }
    }

    /// The sentence a failing assertion shows for a scenario's state never entered or transition never taken.
    public static func explain(_ item: Item, of scenario: Scenario) -> String {
        let what = item.kind == .state ? "reached \(item.title)" : "took the transition \(item.title)"
        return "no test \(what) of scenario \(scenario.scenario): \(item.hint)"
    }

    /// The sentence a failing assertion shows for a documented status of an operation no answer had.
    public static func explain(_ status: Int, of operation: Operation) -> String {
        "no test saw \(operation.operation) answer \(status), which the spec documents: \(operation.hint(for: status))"
    }

    /// The sentence a failing assertion shows for one uncovered item: what was never seen, and how to reach it.
    public static func explain(_ item: Item, on route: Route) -> String {
        "no test saw the \(item.title) on \(route.signature)\(route.route == route.signature ? "" : " (route \(route.route))"): \(item.hint)"
    }

    /// Route items, each scenario's states and transitions, and each documented status of each operation as one more item.
    private static func summarize(_ routes: [Route], _ operations: [Operation]?, _ scenarios: [Scenario]?) -> Summary {
        let items = routes.flatMap(\.items) + (scenarios ?? []).flatMap(\.items)
        let statuses = (operations ?? []).reduce(0) { $0 + $1.documented.count }
        let answered = (operations ?? []).reduce(0) { $0 + $1.documented.count - $1.unanswered.count }
        return Summary(items: items.count + statuses, covered: items.filter(\.isCovered).count + answered,
                       routes: routes.count, routesHit: routes.filter { $0.hits > 0 }.count)
    }

    private static func behaviours(of routes: [Route]) -> [Behaviour] {
        var tally: [String: (answers: Int, covered: Int)] = [:]
        for item in routes.flatMap(\.items) where item.kind == .answer {
            for behaviour in item.behaviours ?? [] {
                // `delay 200ms` and `delay 1s` are one behaviour: a test that saw a delay saw delays.
                let kind = behaviour.hasPrefix("delay") ? "delay" : behaviour.hasPrefix("throttle") ? "throttle" : behaviour
                tally[kind, default: (0, 0)].answers += 1
                if item.isCovered { tally[kind, default: (0, 0)].covered += 1 }
            }
        }
        return tally.keys.sorted().map { Behaviour(behaviour: $0, answers: tally[$0]!.answers, covered: tally[$0]!.covered) }
    }

    /// Counts stop at `Int.max` rather than trap: shards of a long soak can add up past it.
    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b < 0 ? Int.min : Int.max) : sum
    }

    /// Several reports as one (CI shards): hits added item by item. Routes and items are matched by
    /// `route` and `id`, in the order they first appear; the session is dropped.
    public static func merged(_ reports: [CoverageReport]) -> CoverageReport {
        var order: [String] = []
        var routes: [String: Route] = [:]
        var operations: [String: Operation] = [:]
        var operationOrder: [String] = []
        var scenarios: [String: Scenario] = [:]
        var scenarioOrder: [String] = []
        for report in reports {
            for scenario in report.scenarios ?? [] {
                guard var known = scenarios[scenario.scenario] else {
                    scenarioOrder.append(scenario.scenario)
                    scenarios[scenario.scenario] = scenario
                    continue
                }
                if let theirs = scenario.keys { known.keys = saturatingSum(known.keys ?? 0, theirs) }
                for item in scenario.items {
                    if let i = known.items.firstIndex(where: { $0.id == item.id }) { known.items[i].hits = saturatingSum(known.items[i].hits, item.hits) } else { known.items.append(item) }
                }
                scenarios[scenario.scenario] = known
            }
            for route in report.routes {
                guard var known = routes[route.route] else {
                    order.append(route.route)
                    routes[route.route] = route
                    continue
                }
                known.hits = saturatingSum(known.hits, route.hits)
                for item in route.items {
                    if let i = known.items.firstIndex(where: { $0.id == item.id }) {
                        known.items[i].hits = saturatingSum(known.items[i].hits, item.hits)
                        if let sent = item.eventsSent { known.items[i].eventsSent = max(known.items[i].eventsSent ?? 0, sent) }
                    } else { known.items.append(item) }
                }
                routes[route.route] = known
            }
            for op in report.operations ?? [] {
                guard var known = operations[op.operation] else {
                    operationOrder.append(op.operation)
                    operations[op.operation] = op
                    continue
                }
                known.answered = Array(Set(known.answered + op.answered)).sorted()
                known.state = Operation.state(documented: known.documented, answered: known.answered)
                known.hints = known.hints?.filter { !known.answered.contains($0.status) }
                operations[op.operation] = known
            }
        }
        let hasOperations = reports.contains { $0.operations != nil }
        let hasScenarios = reports.contains { $0.scenarios != nil }
        return CoverageReport(session: nil, routes: order.map { routes[$0]! },
                              operations: hasOperations ? operationOrder.map { operations[$0]! } : nil,
                              scenarios: hasScenarios ? scenarioOrder.map { scenarios[$0]! } : nil)
    }
}
