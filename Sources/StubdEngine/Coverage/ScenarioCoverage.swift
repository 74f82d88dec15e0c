import Foundation
package import StubdProtocol

/// The scenarios part of a coverage report: each scenario of the catalog with the states its routes
/// and timed moves declare (every one but `Started`, where each session begins) and the transitions
/// between them (a route's `whenState:` → `thenState:`, out of any state when it gives no
/// `whenState:`, and each timed move), with what sessions counted (`ScenarioCounts`). Runtime stubs
/// declare nothing here, as they are no route items either.
package enum ScenarioCoverage {
    package static func report(_ catalog: StubCatalog, _ counts: ScenarioCounts) -> [CoverageReport.Scenario]? {
        guard !catalog.scenarios.isEmpty else { return nil }
        return catalog.scenarios.keys.sorted().map { name in
            let routes = catalog.routes.filter { $0.scenario?.name == name }
            let step = catalog.scenarioSteps[name]
            let timed = step?.moves ?? []
            let states = (catalog.scenarios[name] ?? []).filter { $0 != ScenarioStep.started }
            var items = states.map { state in
                CoverageReport.Item(kind: .state, id: "state \(state)", title: "state '\(state)'", state: state,
                                    hits: counts.timesEntered(name, state),
                                    hint: stateHint(name, state, routes, timed, keyed: step?.key != nil))
            }
            // Each move once, in the order routes declare them: two routes moving alike are one transition.
            var moves: [(ScenarioCounts.Move, [Route])] = []
            for route in routes {
                guard let s = route.scenario, let then = s.thenState, then != s.whenState else { continue }
                let move = ScenarioCounts.Move(from: s.whenState, to: then)
                if let i = moves.firstIndex(where: { $0.0 == move }) { moves[i].1.append(route) } else { moves.append((move, [route])) }
            }
            items += moves.map { move, by in
                let names = by.map { $0.name ?? $0.signature }
                let title = "\(move.from ?? "any state") → \(move.to) (route\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")))"
                return CoverageReport.Item(kind: .transition, id: "transition \(move.from ?? "*") -> \(move.to)", title: title,
                                           from: move.from, to: move.to, hits: counts.timesTaken(name, move),
                                           hint: routeMoveHint(name, move, by[0]))
            }
            items += timed.map { t in
                let move = ScenarioCounts.Move(from: t.from, to: t.to, after: t.after)
                return CoverageReport.Item(kind: .transition, id: "transition \(t.from) -> \(t.to) after \(seconds(t.after))",
                                           title: "\(t.from) → \(t.to) after \(seconds(t.after)) (timed move)",
                                           from: t.from, to: t.to, hits: counts.timesTaken(name, move), hint: timedHint(name, t))
            }
            return CoverageReport.Scenario(scenario: name, keyedBy: step?.key?.description,
                                           keys: step?.key == nil ? nil : counts.keysMoved(name), items: items)
        }
    }

    /// `30s`, `2m`, `1h`, `1.5s`: a timed move's wait as `after:` is written.
    static func seconds(_ after: TimeInterval) -> String {
        guard after.rounded() == after, after < 1e15 else { return "\(after)s" }
        let whole = Int(after)
        if whole % 3600 == 0 { return "\(whole / 3600)h" }
        if whole % 60 == 0 { return "\(whole / 60)m" }
        return "\(whole)s"
    }

    /// The number `POST /__stubd/clock/advance` takes.
    private static func number(_ after: TimeInterval) -> String {
        after.rounded() == after && after < 1e15 ? String(Int(after)) : String(after)
    }

    private static func request(_ route: Route) -> String {
        let path = route.signature.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
        let request = "\(route.method == .any ? "GET" : route.method.description) \(path)"
        return route.name.map { "\(request) (route \($0))" } ?? request
    }

    private static func keyNote(_ route: Route) -> String {
        route.scenario?.key.map { " for one key (its \($0))" } ?? ""
    }

    private static func routeMoveHint(_ name: String, _ move: ScenarioCounts.Move, _ route: Route) -> String {
        guard let from = move.from else {
            return "send \(request(route))\(keyNote(route)) while scenario \(name) is in any state but '\(move.to)'"
        }
        return "send \(request(route))\(keyNote(route)) while scenario \(name) is in '\(from)'"
    }

    private static func timedHint(_ name: String, _ move: ScenarioMove) -> String {
        #"once scenario \#(name) is in '\#(move.from)', move the session's clock on \#(seconds(move.after)) (`POST /__stubd/clock/advance` {"seconds": \#(number(move.after))})"#
    }

    private static func stateHint(_ name: String, _ state: String, _ routes: [Route], _ timed: [ScenarioMove], keyed: Bool) -> String {
        let set = #"`PUT /__stubd/scenarios/\#(name)` {"state": "\#(state)"\#(keyed ? #", "key": …"# : "")}"#
        if let route = routes.first(where: { $0.scenario?.thenState == state && $0.scenario?.whenState != state }) {
            let when = route.scenario?.whenState.map { " while scenario \(name) is in '\($0)'" } ?? ""
            return "send \(request(route))\(keyNote(route))\(when), or put it there with \(set)"
        }
        if let move = timed.first(where: { $0.to == state }) {
            return timedHint(name, move) + ", or put it there with \(set)"
        }
        return "put it there with \(set): no route or timed move leads there"
    }
}
