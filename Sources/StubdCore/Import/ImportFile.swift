import Foundation
import StubdEngine

/// A file an import reads whole (a Postman collection, a WireMock mapping; a HAR is streamed, see HARDocument): refused by its size before a byte is
/// read, since the import holds it and what it parses to in memory, and named when it is a folder
/// or cannot be read. One place, so every importer's --max-size and messages say the same.
package enum ImportFile {
    /// `--max-size`'s default: 256 MiB, a few times that at an import's peak (the file, then what it parses to).
    package static let defaultMaxBytes = 256 << 20

    /// `name`: the file as the user gave it; `kind`: what it should be ("a HAR file"), for the folder
    /// message; `overSize`: what to do when it is over `maxBytes`, after "over the N MiB --max-size".
    static func read(_ url: URL, name: String, kind: String, maxBytes: Int,
                     overSize: String = " (raise it if this machine has the memory)") throws(ImportError) -> Data {
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard (attributes[.type] as? FileAttributeType) != .typeDirectory else { throw ImportError("\(name) is a folder, not \(kind)") }
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError("\(name): cannot read: \(error.localizedDescription)")
        }
        guard size <= maxBytes else {
            throw ImportError("\(name) is \(size >> 20) MiB, over the \(maxBytes >> 20) MiB --max-size\(overSize); nothing written")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else { throw ImportError("\(name): cannot read (check its permissions)") }
        return data
    }
}
