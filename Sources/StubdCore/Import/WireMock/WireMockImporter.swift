package import Foundation
import StubdEngine

/// `stubd import wiremock`: WireMock stub mappings (`mappings/*.json`, bodies under `__files/`)
/// written into a Stubs folder through StubsImport, the writing side `stubd import har` uses: a
/// convention file where a path alone decides, a `stubd.recorded.yml` route otherwise, the folder
/// loaded as `serve` loads it before the import says it is done.
///
/// Every mapping is translated before a byte is written: a file that is not a mapping, a body
/// that is not there or would be read from outside `__files/`, base64 that is not, each stop the
/// import, all named at once. A mapping stubd cannot say (a URL regex beyond stubd paths, a fault,
/// a proxy, a scenario state nothing enters) is listed as not imported and the rest come over;
/// scenarios become stubd's (`scenario:`, `whenState:`, `thenState:`).
package struct WireMockImporter {
    package let settings: ImportSettings

    package init(_ settings: ImportSettings) { self.settings = settings }

    package func run(_ input: URL, name: String) throws(ImportError) -> ImportReport {
        let source = try WireMockMappings.load(input, name: name, maxBytes: settings.maxBytes)
        var translations: [ImportCandidate] = []
        var problems: [String] = []
        for mapping in source.mappings {
            do { translations.append(try mapping.translate(files: source.files, root: source.root, maxBytes: settings.maxBytes)) } catch {
                problems += error.problems
            }
        }
        guard problems.isEmpty else { throw ImportError.all(problems) }
        // A mapping that waits for a state no mapping moves into would never answer, and the
        // folder's check refuses one: it is listed instead.
        var entered: [String: Set<String>] = [:]
        for c in translations { if let step = c.stub?.scenario, let then = step.thenState { entered[step.name, default: []].insert(then) } }
        for i in translations.indices {
            guard let step = translations[i].stub?.scenario, let when = step.whenState, when != ScenarioStep.started,
                  entered[step.name]?.contains(when) != true else { continue }
            translations[i].stub = nil
            translations[i].leftOut = "\(translations[i].source): it answers in scenario \(step.name)'s state '\(when)', which no mapping moves into (newScenarioState), so it would never answer"
        }

        var report = ImportReport(sourceTitle: "MAPPING")
        let writer = try StubsImport(root: settings.root)
        // A state a mapping moves into that none answers in (an end state) may be spelt like one
        // they answer in (`Unpaid` → `Paid`): the folder's check would take it for a typo and the
        // import would be taken back. It is what the mappings say: declared, so it loads as meant.
        var answered: [String: Set<String>] = [:], endStates: [String: Set<String>] = [:]
        for c in translations { if let step = c.stub?.scenario, let when = step.whenState { answered[step.name, default: []].insert(when) } }
        for c in translations {
            if let step = c.stub?.scenario, let then = step.thenState, then != ScenarioStep.started, answered[step.name]?.contains(then) != true {
                endStates[step.name, default: []].insert(then)
            }
        }
        for (name, states) in endStates { writer.recorder.declare(scenario: name, states: states) }
        // WireMock answers two mappings alike with one of them.
        writer.write(translations, into: &report) { first in "the same request as \(first), which is imported (WireMock answers one of the two)" }
        try writer.finish(input: "mappings")
        return report
    }
}
