package import Foundation
import StubdEngine

/// What an importer that reads its files whole (`stubd import postman`, `stubd import wiremock`) is
/// given: the Stubs folder it writes into, and the largest input file it reads (`--max-size`),
/// refused by its size before a byte is read.
package struct ImportSettings: Sendable {
    package let root: URL
    package let maxBytes: Int

    package init(root: URL, maxBytes: Int = ImportFile.defaultMaxBytes) {
        self.root = root.standardizedFileURL
        self.maxBytes = maxBytes
    }
}
