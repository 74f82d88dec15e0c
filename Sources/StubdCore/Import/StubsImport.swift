package import Foundation
import StubdEngine

/// The writing side every `stubd import` shares: StubsRecorder writes each stub as `stubd record`
/// would (convention file or `stubd.recorded.yml` route, nothing outside the folder, what the folder
/// already answers left alone), then `finish()` loads the whole folder as `stubd serve` does and it
/// must answer every request imported, or the import is taken back whole.
package final class StubsImport {
    package let root: URL
    let recorder: StubsRecorder
    private let snapshot: FolderSnapshot
    /// What the folder must answer once written, with how the message names it.
    private var served: [(request: RequestHead, label: String)] = []

    package init(root: URL, rules: RecordingRules = RecordingRules()) throws(ImportError) {
        self.root = root.standardizedFileURL
        do { recorder = try StubsRecorder(root: self.root, rules: rules, mode: .new, defersManifest: true) } catch {
            throw ImportError("cannot import into \(self.root.path): \(error)")
        }
        snapshot = FolderSnapshot(root: self.root)
    }

    /// A request seen on the wire (a HAR entry), scrubbed as `stubd record` scrubs it.
    func write(_ exchange: RecordedExchange, label: String) -> StubsRecorder.Outcome {
        let outcome = recorder.record(exchange)
        if case .written = outcome { served.append((exchange.requestHead, label)) }
        return outcome
    }

    /// A stub another tool declared (a WireMock mapping, a Postman example).
    package func write(_ stub: DeclaredStub, label: String) -> StubsRecorder.Outcome {
        let outcome = recorder.record(stub)
        if case .written = outcome { served.append((stub.sample, label)) }
        return outcome
    }

    /// Writes each declared stub (or lists why not) as a row of `report`; a second one with the
    /// request of an earlier one is listed, named by `duplicate(first's source)`, not written:
    /// the recorder would make a sequence of the two, which neither tool meant.
    func write(_ candidates: [ImportCandidate], into report: inout ImportReport, duplicate: (String) -> String) {
        var firstWith: [String: String] = [:]
        for c in candidates {
            func row(_ kind: ImportRow.Kind, _ result: String, partial: [String] = []) {
                report.rows.append(ImportRow(source: c.source, method: c.method, target: c.target, status: c.status, kind: kind, result: result, partial: partial))
            }
            guard let stub = c.stub else { row(.leftOut, c.leftOut ?? "not translated"); continue }
            if let first = firstWith[c.identity] { row(.leftOut, duplicate(first)); continue }
            firstWith[c.identity] = c.source
            let (kind, place, routeName, files) = StubsImport.describe(write(stub, label: "\(c.method) \(c.target) (\(c.source))"))
            if let routeName {
                report.routes.insert(routeName)
                report.files.formUnion(files)
            }
            row(kind, kind == .imported && c.result != nil ? "\(place) (\(c.result!))" : place, partial: c.partial)
        }
    }

    /// Writes `stubd.recorded.yml`, loads the folder as `serve` does and checks it answers each
    /// request written; on any failure the folder is put back as it was. `input`: what to attach to a report.
    package func finish(input: String) throws(ImportError) {
        do {
            try recorder.writeManifest()
            let catalog = try StubCatalog.load(stubs: root)
            for (request, label) in served {
                guard case .matched = catalog.match(request) else {
                    throw ImportError("the folder written does not answer \(label)")
                }
            }
        } catch {
            snapshot.restore()
            let detail = (error as? ImportError)?.description ?? "\(error)"
            throw ImportError(["\(root.path) would not load after the import (a bug in stubd: please report it with the \(input)):", detail,
                               "nothing written: the folder is as it was"])
        }
    }

    /// The table's words for an outcome: where it came over, or why not.
    static func describe(_ outcome: StubsRecorder.Outcome) -> (kind: ImportRow.Kind, result: String, route: String?, files: [String]) {
        switch outcome {
        case let .written(files, route, _, _):
            let routeName = route.components(separatedBy: " (").first ?? route
            // A manifest route (`rec-<hash>`, or the name a WireMock mapping or Postman example gave it).
            let place = files.contains(StubsRecorder.manifestName) ? "\(routeName) in \(StubsRecorder.manifestName)" : files.first ?? route
            return (.imported, place, routeName, files)
        case .skipped(let why) where why.hasPrefix("already answered"):
            return (.alreadyThere, why, nil, [])
        case .skipped(let why) where why == "same answer as before":
            return (.imported, "same answer as an earlier request", nil, [])
        case .skipped(let why), .failed(let why):
            return (.leftOut, why, nil, [])
        }
    }
}
