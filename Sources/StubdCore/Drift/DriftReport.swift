import Foundation
import StubdEngine

/// What `stubd drift` found, route by route: a table for people (shape changes first) or JSON for
/// machines. Nothing in it holds a `--secret` value: requests are shown as the folder spells them.
package struct DriftReport: Sendable {
    package struct RouteResult: Sendable, Encodable {
        package enum Outcome: String, Sendable, Encodable {
            /// Replayed twice and compared.
            case compared
            /// Not replayable (`problem` says why).
            case skipped
            /// Sent, but no answer to compare (`problem` says why).
            case failed
            /// The run stopped before this route (a 429, `--timeout`, an unreachable target).
            case notChecked = "not-checked"
        }
        package var request: String
        package var route: String
        package var source: String
        package var outcome: Outcome
        package var findings: [DriftFinding] = []
        package var problem: String?

        package init(request: String, route: String, source: String, outcome: Outcome, findings: [DriftFinding] = [], problem: String? = nil) {
            self.request = request
            self.route = route
            self.source = source
            self.outcome = outcome
            self.findings = findings.sorted { $0.kind < $1.kind }
            self.problem = problem
        }

        func count(_ kind: DriftFinding.Kind) -> Int { findings.filter { $0.kind == kind }.count }

        /// Shape drift first, then value drift, volatile-only, failures and skips, then routes unchanged.
        var rank: Int {
            if count(.shape) > 0 { return 0 }
            if count(.contract) > 0 { return 1 }
            if count(.value) > 0 { return 2 }
            if count(.volatile) > 0 { return 3 }
            switch outcome {
            case .failed: return 4
            case .skipped: return 5
            case .notChecked: return 6
            case .compared: return 7
            }
        }
    }

    package var target: String
    package var folder: String
    package var routes: [RouteResult] = []
    /// Routes of the user's own manifest left out (replayed with `--all`).
    package var handWrittenLeftOut = 0
    /// Why the run stopped before its end, if it did.
    package var stopped: String?
    /// Files `--write` wrote, relative to its folder.
    package var written: [String] = []
    /// `--spec`: the spec's file name, when live answers were held against it.
    package var spec: String?

    package init(target: String, folder: String) {
        self.target = target
        self.folder = folder
    }

    package var hasShapeDrift: Bool { routes.contains { $0.count(.shape) > 0 } }
    /// Whether a live answer broke the spec given with `--spec`.
    package var hasContractDrift: Bool { routes.contains { $0.count(.contract) > 0 } }

    private var ordered: [RouteResult] {
        routes.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
    }

    private func total(_ kind: DriftFinding.Kind) -> Int { routes.reduce(0) { $0 + $1.count(kind) } }

    package var summary: String {
        let compared = routes.filter { $0.outcome == .compared }
        let drifting = routes.filter { $0.count(.shape) > 0 }.count
        var parts = ["\(total(.shape)) shape change(s) in \(drifting) route(s)"]
        if let spec {
            let breaking = routes.filter { $0.count(.contract) > 0 }.count
            parts.append("\(total(.contract)) place(s) where the live API breaks \(spec) in \(breaking) route(s)")
        }
        parts += ["\(total(.value)) value change(s)",
                     "\(total(.volatile)) volatile place(s)",
                     "\(compared.filter { $0.findings.isEmpty }.count) of \(compared.count) compared route(s) unchanged"]
        let skipped = routes.filter { $0.outcome == .skipped }.count
        let failed = routes.filter { $0.outcome == .failed }.count
        let notChecked = routes.filter { $0.outcome == .notChecked }.count
        if skipped > 0 { parts.append("\(skipped) skipped") }
        if failed > 0 { parts.append("\(failed) failed") }
        if notChecked > 0 { parts.append("\(notChecked) not checked") }
        if handWrittenLeftOut > 0 { parts.append("\(handWrittenLeftOut) hand-written route(s) left out (--all replays them)") }
        return parts.joined(separator: ", ")
    }

    /// The readable table: one block per route, most serious first.
    package func table() -> String {
        var lines = ["stubd drift: \(folder) against \(target), each request sent twice"
                     + (spec.map { ", live answers held against \($0)" } ?? ""), ""]
        if routes.isEmpty {
            lines.append(handWrittenLeftOut > 0 ? "nothing recorded to replay: the folder's routes are hand-written (--all replays those with one concrete request)"
                                                : "nothing to replay: the folder has no routes")
        }
        for result in ordered {
            lines.append("\(result.request)  [\(result.source)]")
            switch result.outcome {
            case .compared where result.findings.isEmpty: lines.append("  no drift")
            case .compared: break
            case .skipped: lines.append("  skipped: \(result.problem ?? "")")
            case .failed: lines.append("  failed: \(result.problem ?? "")")
            case .notChecked: lines.append("  not checked: the run stopped first")
            }
            if result.outcome == .compared, let note = result.problem { lines.append("  note: \(note)") }
            let width = min(40, result.findings.map(\.place.count).max() ?? 0)
            var shown: [DriftFinding.Kind: Int] = [:]
            for finding in result.findings {
                shown[finding.kind, default: 0] += 1
                // A reshaped list can differ in a thousand values; the JSON output has them all.
                let limit = 20
                if shown[finding.kind]! > limit {
                    if shown[finding.kind]! == limit + 1 {
                        lines.append("  \(finding.kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))"
                                     + "… \(result.count(finding.kind) - limit) more (--format json lists every one)")
                    }
                    continue
                }
                lines.append("  \(finding.kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))"
                             + "\(finding.place.padding(toLength: max(width, finding.place.count), withPad: " ", startingAt: 0))  \(finding.change)")
            }
        }
        lines.append("")
        if let stopped { lines.append("STOPPED: \(stopped)") }
        if !written.isEmpty { lines.append("wrote \(written.count) file(s) for review: \(written.joined(separator: ", "))") }
        let exit = [hasShapeDrift ? "shape drift" : nil, hasContractDrift ? "the live API breaks the spec" : nil].compactMap { $0 }
        lines.append(summary + (exit.isEmpty ? "" : "; exit 1 (\(exit.joined(separator: ", ")))"))
        return lines.joined(separator: "\n")
    }

    private struct Document: Encodable {
        var target: String
        var folder: String
        var shapeDrift: Bool
        var contractDrift: Bool
        var spec: String?
        var stopped: String?
        var summary: String
        var routes: [RouteResult]
        var written: [String]
        var handWrittenLeftOut: Int
    }

    /// `--format json`: every finding, routes in the table's order.
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(target: target, folder: folder, shapeDrift: hasShapeDrift, contractDrift: hasContractDrift, spec: spec, stopped: stopped, summary: summary,
                                routes: ordered, written: written, handWrittenLeftOut: handWrittenLeftOut)
        return (try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
