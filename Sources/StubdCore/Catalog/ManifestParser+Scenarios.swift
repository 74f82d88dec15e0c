import Yams

extension ManifestParser {
    /// A route's `scenario:`, `whenState:` and `thenState:`; nil (and a problem) when the states
    /// are given without the scenario they belong to.
    mutating func parseScenarioStep(_ map: Node.Mapping) -> ScenarioStep? {
        let whenNode = map["whenState"], thenNode = map["thenState"]
        guard let nameNode = map["scenario"] else {
            for (node, key) in [(whenNode, "whenState"), (thenNode, "thenState")] where node != nil {
                add(node, "'\(key)' needs a 'scenario': the state machine whose state it names",
                    hint: "add scenario: NAME, the same on every route of one flow")
            }
            return nil
        }
        guard let name = string(nameNode, "scenario") else { return nil }
        if !ManifestParser.isScenarioWord(name) {
            add(nameNode, "a scenario's name is letters, digits, '_', '-' or '.' (it is part of its admin URL), was '\(name)'",
                hint: "scenario: checkout")
            return nil
        }
        var states: [String?] = []
        for (node, key) in [(whenNode, "whenState"), (thenNode, "thenState")] {
            guard let node else { states.append(nil); continue }
            guard let state = string(node, key) else { return nil }
            if !ManifestParser.isScenarioWord(state) {
                add(node, "a state's name is letters, digits, '_', '-' or '.', was '\(state)'", hint: "\(key): paid")
                return nil
            }
            states.append(state)
        }
        let step = ScenarioStep(name: name, whenState: states[0], thenState: states[1])
        scenarioMentions.append((step: step, when: whenNode, then: thenNode))
        return step
    }

    static func isScenarioWord(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 100 && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
    }

    /// `scenarios: { checkout: [paid] }`: states only a test sets (`PUT /__stubd/scenarios/checkout`),
    /// so a route may answer in them though no route moves there.
    mutating func parseDeclaredScenarios(_ node: Node) {
        guard let map = mapping(node, "scenarios") else { return }
        for (key, value) in map {
            guard let name = string(key, "a scenario's name") else { continue }
            guard ManifestParser.isScenarioWord(name) else {
                add(key, "a scenario's name is letters, digits, '_', '-' or '.', was '\(name)'", hint: "scenarios: { checkout: [paid] }")
                continue
            }
            guard case .sequence(let items) = value else {
                add(value, "scenarios.\(name) is a list of the states a test sets", hint: "scenarios: { \(name): [paid] }")
                continue
            }
            var states = Set<String>()
            for item in items {
                guard let state = string(item, "a state") else { continue }
                if ManifestParser.isScenarioWord(state) { states.insert(state) }
                else { add(item, "a state's name is letters, digits, '_', '-' or '.', was '\(state)'") }
            }
            declaredScenarioStates[name] = (states, key)
        }
    }

    /// Once every route is read: a state a route answers in that no route moves into can never be
    /// reached (a misspelt name, most often), and a move into a state spelt like one routes answer
    /// in, but not quite, is the same typo seen from the other end.
    mutating func checkScenarioStates() {
        var entered: [String: Set<String>] = [:], answered: [String: Set<String>] = [:]
        for (name, declared) in declaredScenarioStates {
            if !scenarioMentions.contains(where: { $0.step.name == name }) {
                add(declared.node, "scenarios names '\(name)', but no route gives scenario: \(name)", hint: "remove it, or check its spelling")
            }
            entered[name, default: [ScenarioStep.started]].formUnion(declared.states)
        }
        for mention in scenarioMentions {
            entered[mention.step.name, default: [ScenarioStep.started]].formUnion([mention.step.thenState].compactMap { $0 })
            answered[mention.step.name, default: []].formUnion([mention.step.whenState].compactMap { $0 })
        }
        for mention in scenarioMentions {
            let name = mention.step.name
            let into = entered[name] ?? [ScenarioStep.started]
            if let when = mention.step.whenState, !into.contains(when) {
                let listed = into.sorted().map { "'\($0)'" }.joined(separator: ", ")
                add(mention.when, "scenario '\(name)' never enters state '\(when)': no route's thenState moves into it, so this route never answers",
                    hint: Self.nearest(to: when, in: into).map { "did you mean '\($0)'?" }
                        ?? "states it enters: \(listed); give the route that leads here thenState: \(when), or, if only a test sets it, declare it: scenarios: { \(name): [\(when)] }")
            }
            // `item-2` beside `item-1` is two states, not a typo: names that differ in digits only are
            // left alone, and so is a state `scenarios:` declares (an end state named on purpose).
            if let then = mention.step.thenState, let wanted = answered[name], !wanted.contains(then),
               declaredScenarioStates[name]?.states.contains(then) != true,
               let near = Self.nearest(to: then, in: wanted), near.filter({ !$0.isNumber }) != then.filter({ !$0.isNumber }) {
                add(mention.then, "scenario '\(name)' moves into state '\(then)', which no route answers in",
                    hint: "did you mean '\(near)'? An end state no route answers in is allowed, but not spelt like one they answer in")
            }
        }
    }

    /// The state spelt most like `word` within two edits, if any.
    private static func nearest(to word: String, in states: Set<String>) -> String? {
        states.filter { $0 != word }.map { (state: $0, d: editDistance(word, $0)) }.filter { $0.d <= 2 }
            .min { ($0.d, $0.state) < ($1.d, $1.state) }?.state
    }
}
