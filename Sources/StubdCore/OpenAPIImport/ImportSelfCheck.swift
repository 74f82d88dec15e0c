package import Foundation
import StubdEngine

/// The folder an import would write, loaded and checked by the loader `stubd check --spec` uses,
/// before anything is written: an import must never report success for a folder `check` or
/// `serve` refuses (before, a spec with no operations wrote a `routes:` that check rejected).
///
/// Only the import's own files are checked, in a temporary folder: the user's other stubs are theirs
/// to answer for.
package enum ImportSelfCheck {
    /// The problems `stubd check --spec` would report on `files`, each as it would print it; empty when none.
    package static func problems(of files: [String: Data], against contract: APIContract) -> [String] {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("stubd-import-check-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            for (path, data) in files {
                let url = root.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                // Not Data.write: it fsyncs each file, and this folder is thrown away.
                try ImportWriter.writeUnsynced(data, to: url)
            }
        } catch {
            return ["cannot stage the import in \(root.path) to check it: \(error.localizedDescription)"]
        }
        do throws(CatalogLoadError) {
            let catalog = try StubCatalog.load(stubs: root)
            return StubContractCheck(catalog: catalog, contract: contract, swiftWarnings: false).problems.map(\.description)
        } catch {
            return error.problems.map(\.description)
        }
    }
}
