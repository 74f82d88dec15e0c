import Foundation
import HTTPTypes
import StubdProtocol
import Yams
import StubdEngine

/// The text of `stubd.recorded.yml`: one block of routes per recorded request, each opened by a
/// `# stubd record: KEY` line so recording again finds and rewrites the blocks it owns and leaves
/// the user's edits elsewhere alone.
enum RecordedManifest {
    static let marker = "  # stubd record: "

    /// One request's block: its `# stubd record:` line, the request, and its answer or sequence.
    static func routeBlock(_ s: ScrubbedExchange, key: String, name: String, answers: [RecordedAnswer]) -> String {
        var lines = [marker + key, "  - name: \(quoted(name))", "    request:",
                     "      method: \(quoted(s.method.rawValue))", "      path: \(quoted(s.path))"]
        if !s.query.isEmpty {
            lines.append("      query: { " + s.query.map { "\(quoted($0.name)): \(quoted($0.value ?? ""))" }.joined(separator: ", ") + " }")
        }
        if !s.headers.isEmpty {
            lines.append("      headers: { " + s.headers.map { "\(quoted($0.name.rawName)): \(quoted($0.value))" }.joined(separator: ", ") + " }")
        }
        if let operation = s.graphQL {
            var parts = ["operationName: \(quoted(operation.name))"]
            if let query = operation.query { parts.append("query: \(quoted(query))") }
            if let variables = operation.variables, variables != .object([:]) { parts.append("variables: \(variables.serialized)") }
            lines.append("      graphql: { " + parts.joined(separator: ", ") + " }")
        }
        if let json = s.requestJSON { lines.append("      body: { json: \(json.serialized) }") }
        else if let text = s.requestContains { lines.append("      body: { contains: \(quoted(text)) }") }
        func response(_ a: RecordedAnswer) -> String {
            if a.isWebSocket, let file = a.file { return "{ websocket: \(quoted(file)) }" }
            var parts = ["status: \(a.status)"]
            if !a.headers.isEmpty { parts.append("headers: { " + a.headers.joined(separator: ", ") + " }") }
            if let file = a.file { parts.append("file: \(quoted(file))") }
            if let delay = a.delay { parts.append("delay: \(delay.shortDescription)") }
            if let fault = a.fault { parts.append("fault: \(fault.rawValue)") }
            return "{ " + parts.joined(separator: ", ") + " }"
        }
        if let priority = s.priority { lines.append("    priority: \(priority)") }
        if let step = s.scenario {
            lines.append("    scenario: \(quoted(step.name))")
            if let when = step.whenState { lines.append("    whenState: \(quoted(when))") }
            if let then = step.thenState { lines.append("    thenState: \(quoted(then))") }
        }
        if answers.count == 1 {
            lines.append("    response: " + response(answers[0]))
        } else {
            lines.append("    responses:")
            for a in answers { lines.append("      - " + response(a)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The whole file: what it is, the declared scenarios, the blocks in order.
    static func text(_ blocks: [(key: String, text: String)], scenarios: [String: Set<String>]) -> Data {
        let header = """
        # stubd.recorded.yml: routes written by `stubd record` (and `stubd serve --record-missing`).
        # stubd loads it after stubd.yml. Recording again rewrites the blocks it owns (one per
        # "# stubd record:" line); edit them freely, or move them into stubd.yml.

        """
        // States an import declared (see `declare`): kept when recording again, as the blocks are.
        let declared = scenarios.isEmpty ? "" : "scenarios:\n" + scenarios.keys.sorted().map { name in
            "  \(quoted(name)): [" + scenarios[name]!.sorted().map(quoted).joined(separator: ", ") + "]\n"
        }.joined()
        return Data((header + declared + "routes:\n" + blocks.map(\.text).joined(separator: "\n")).utf8)
    }

    /// The `scenarios:` of a `stubd.recorded.yml` written before, or none.
    static func declaredScenarios(of text: String) -> [String: Set<String>] {
        guard text.contains("\nscenarios:"), let top = (try? Yams.load(yaml: text)) as? [String: Any],
              let scenarios = top["scenarios"] as? [String: Any] else { return [:] }
        var out: [String: Set<String>] = [:]
        for (name, states) in scenarios {
            out[name] = Set(((states as? [Any]) ?? []).map { "\($0)" })
        }
        return out
    }

    /// A block's route name and the files its answers name (`file:`, `websocket:`), as written
    /// there (relative to `__files/`); none when the block, edited by hand, no longer parses.
    static func routeNameAndFiles(of block: String) -> (name: String?, files: [String]) {
        guard let top = (try? Yams.load(yaml: "routes:\n" + block)) as? [String: Any],
              let route = (top["routes"] as? [Any])?.first as? [String: Any] else { return (nil, []) }
        var answers: [[String: Any]] = []
        if let one = route["response"] as? [String: Any] { answers.append(one) }
        if let many = route["responses"] as? [Any] { answers += many.compactMap { $0 as? [String: Any] } }
        let files = answers.flatMap { answer in ["file", "websocket"].compactMap { answer[$0] as? String } }
        return (route["name"] as? String, files)
    }

    static func blocks(of text: String) -> [(key: String, text: String)] {
        var blocks: [(key: String, text: String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(marker) {
                blocks.append((String(line.dropFirst(marker.count)), String(line) + "\n"))
            } else if !blocks.isEmpty, !line.isEmpty {
                blocks[blocks.count - 1].text += line + "\n"
            }
        }
        return blocks
    }

    /// A YAML scalar that reads back as exactly this string (JSON's quoting is valid YAML).
    static func quoted(_ text: String) -> String {
        var out = ""
        JSONValue.writeString(text, to: &out)
        return out
    }
}
