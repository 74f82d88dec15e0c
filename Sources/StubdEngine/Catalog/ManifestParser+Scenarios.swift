import Yams

extension ManifestParser {
    /// A route's `scenario:`, `whenState:` and `thenState:`; nil (and a problem) when the states
    /// are given without the scenario they belong to.
    mutating func parseScenarioStep(_ map: Node.Mapping, parameters: [String]) -> ScenarioStep? {
        let whenNode = map["whenState"], thenNode = map["thenState"], keyNode = map["scenarioKey"]
        guard let nameNode = map["scenario"] else {
            for (node, key) in [(whenNode, "whenState"), (thenNode, "thenState"), (keyNode, "scenarioKey")] where node != nil {
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
        var key: ScenarioKey?
        if let keyNode {
            guard let parsed = scenarioKey(keyNode, parameters: parameters) else { return nil }
            key = parsed
        }
        scenarioKeyMentions.append((name: name, key: keyNode, scenario: nameNode))
        let settings = declaredScenarioSettings[name]
        let step = ScenarioStep(name: name, whenState: states[0], thenState: states[1], key: key,
                                maxKeys: settings?.maxKeys ?? ScenarioStep.defaultMaxKeys, maxKeysSource: settings?.source,
                                moves: settings?.moves ?? [])
        scenarioMentions.append((step: step, when: whenNode, then: thenNode))
        return step
    }

    /// `scenarioKey: { path: id }` (or `{ query: NAME }`, `{ header: NAME }`, `{ jsonPath: '$.field' }`):
    /// the request value a keyed scenario keeps one state per, spelt as a quota's `key:`.
    private mutating func scenarioKey(_ node: Node, parameters: [String]) -> ScenarioKey? {
        let forms = "{ path: NAME } (a {NAME} of the route's path), { query: NAME }, { header: NAME } or { jsonPath: '$.field' }"
        guard let map = node.mapping, map.count == 1, let first = map.first, let kind = first.key.string else {
            add(node, "scenarioKey names one request value whose state the scenario keeps apart", hint: forms)
            return nil
        }
        let k = first.key, v = first.value
        guard let value = string(v, "scenarioKey.\(kind)"), !value.isEmpty else { return nil }
        switch kind {
        case "path":
            guard parameters.contains(value) else {
                add(v, "scenarioKey { path: \(value) }: the route's path has no {\(value)} segment",
                    hint: parameters.isEmpty ? "the path has no parameters: key by { query: NAME }, { header: NAME } or { jsonPath: '$.field' }"
                        : "name one of its parameters: " + parameters.map { "{ path: \($0) }" }.joined(separator: ", "))
                return nil
            }
            return .path(value)
        case "query": return .query(defaultQueryNamesIgnoreCase ? value.lowercased() : value, ignoringCase: defaultQueryNamesIgnoreCase)
        case "header": return .header(value.lowercased())
        case "jsonPath":
            guard value.hasPrefix("$") else {
                add(v, "scenarioKey { jsonPath: \(value) } is not a JSONPath", hint: "start it at the body's root: { jsonPath: '$.\(value)' }")
                return nil
            }
            return .jsonPath(value)
        default:
            let near = ["path", "query", "header", "jsonPath"].min { editDistance(kind, $0) < editDistance(kind, $1) }!
            add(k, "unknown scenarioKey '\(kind)'", hint: (editDistance(kind, near) <= 2 ? "did you mean '\(near)'? " : "") + forms)
            return nil
        }
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
            var stateList: Node? = value
            if let settings = value.mapping {
                checkKeys(settings, ["states", "maxKeys", "moves"], in: "scenarios.\(name)")
                stateList = settings["states"]
                var maxKeys = ScenarioStep.defaultMaxKeys, source: String?
                if let m = settings["maxKeys"], let n = int(m, "maxKeys") {
                    if n < 1 || n > 10_000_000 { add(m, "maxKeys is from 1 to 10,000,000, was \(n)", hint: "maxKeys: 1000") }
                    else { maxKeys = n; source = m.mark.map { "\(file):\($0.line):\($0.column)" } }
                }
                let moves = settings["moves"].map { scenarioMoves($0, of: name) } ?? []
                declaredScenarioSettings[name] = (maxKeys, source, moves)
            }
            guard let stateList else { declaredScenarioStates[name] = ([], key); continue }
            guard case .sequence(let items) = stateList else {
                add(stateList, "scenarios.\(name) is a list of the states a test sets", hint: "scenarios: { \(name): [paid] }")
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
        checkScenarioKeys()
        var entered: [String: Set<String>] = [:], answered: [String: Set<String>] = [:]
        for (name, declared) in declaredScenarioStates {
            if !scenarioMentions.contains(where: { $0.step.name == name }) {
                add(declared.node, "scenarios names '\(name)', but no route gives scenario: \(name)", hint: "remove it, or check its spelling")
            }
            entered[name, default: [ScenarioStep.started]].formUnion(declared.states)
        }
        for (name, settings) in declaredScenarioSettings {
            entered[name, default: [ScenarioStep.started]].formUnion(settings.moves.map(\.to))
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

    /// A keyed scenario keeps one state per key: a route of it without a `scenarioKey` would not
    /// know whose state it reads, so every route of the scenario gives one (each its own spelling:
    /// the id in one route's path may be a body field in another's).
    private mutating func checkScenarioKeys() {
        let keyed = Dictionary(scenarioKeyMentions.filter { $0.key != nil }.map { ($0.name, $0.key!) }, uniquingKeysWith: { first, _ in first })
        for mention in scenarioKeyMentions where mention.key == nil {
            guard let other = keyed[mention.name] else { continue }
            add(mention.scenario, "scenario '\(mention.name)' keeps a state per key (scenarioKey at line \((other.mark?.line).map(String.init) ?? "?")), but this route gives no scenarioKey: whose state would it read?",
                hint: "add scenarioKey: { path: NAME } (or query, header, jsonPath) naming the same value in this route's request")
        }
    }

    /// `moves: [{ from: paid, after: 30s, to: shipped }]`.
    private mutating func scenarioMoves(_ node: Node, of name: String) -> [ScenarioMove] {
        guard case .sequence(let items) = node else {
            add(node, "scenarios.\(name).moves is a list of timed moves", hint: "moves: [{ from: paid, after: 30s, to: shipped }]")
            return []
        }
        var moves: [ScenarioMove] = []
        for item in items {
            guard let map = mapping(item, "a timed move") else { continue }
            checkKeys(map, ["from", "after", "to"], in: "a timed move")
            guard let fromNode = map["from"], let afterNode = map["after"], let toNode = map["to"] else {
                add(item, "a timed move needs from, after and to", hint: "{ from: paid, after: 30s, to: shipped }")
                continue
            }
            guard let from = string(fromNode, "from"), let to = string(toNode, "to"), let after = duration(afterNode) else { continue }
            var ok = true
            for (node, state) in [(fromNode, from), (toNode, to)] where !ManifestParser.isScenarioWord(state) {
                add(node, "a state's name is letters, digits, '_', '-' or '.', was '\(state)'"); ok = false
            }
            if from == ScenarioStep.started {
                add(fromNode, "a timed move cannot start from Started: a scenario (or a key) is in Started from the start, with no moment it entered it",
                    hint: "move out of a state a route or a test moves into, e.g. { from: paid, after: 30s, to: shipped }"); ok = false
            }
            if after <= .zero { add(afterNode, "a timed move's 'after' must be more than 0", hint: "after: 30s"); ok = false }
            if moves.contains(where: { $0.from == from }) {
                add(fromNode, "scenario '\(name)' already has a timed move from '\(from)'", hint: "one timed move out of each state"); ok = false
            }
            let seconds = Double(after.components.seconds) + Double(after.components.attoseconds) / 1e18
            if ok { moves.append(ScenarioMove(from: from, after: seconds, to: to)) }
        }
        return moves
    }
}
