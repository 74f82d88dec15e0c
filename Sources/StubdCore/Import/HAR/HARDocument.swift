package import Foundation
import StubdEngine

/// A HAR file read from disk one entry at a time (HARStreamReader), twice: `open` reads every entry
/// and checks it (a truncated file, an entry that makes no sense or base64 that is not stops the
/// import with nothing written) keeping only each entry's host, and `forEachEntry` reads them again
/// for the import to write. Memory is the largest entry, not the file: a 1 GB capture imports
/// (Benchmarks/RESULTS.md), and `maxEntryBytes` (--max-size) caps an entry, not the file.
package struct HARDocument: Sendable {
    package static let defaultMaxBytes = ImportFile.defaultMaxBytes

    package let url: URL
    /// The file as the user gave it, for messages.
    package let name: String
    package let maxEntryBytes: Int
    /// How many entries `log.entries` holds.
    package let count: Int
    /// Each entry's `host` (`HAREntry.host`) and host name, in file order: what `--host` chooses from.
    package let hosts: [(host: String, hostName: String)]
    /// `log.creator.name` and version, for the report (`mitmproxy 11.0.2`, `WebInspector 537.36`).
    package let creator: String

    /// `name`: the file as the user gave it, for messages (its path by default).
    package static func load(_ url: URL, name: String? = nil, maxBytes: Int = defaultMaxBytes) throws(ImportError) -> HARDocument {
        let name = name ?? url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ImportError("\(name): cannot read: no such file")
        }
        guard !isDirectory.boolValue else { throw ImportError("\(name) is a folder, not a HAR file") }
        var reader = try HARStreamReader(url: url, name: name, maxEntryBytes: maxBytes)
        var hosts: [(host: String, hostName: String)] = []
        var problems: [String] = []
        var count = 0
        while let raw = try reader.next() {
            count += 1
            do {
                let entry = try HARDocument.entry(raw, name: name)
                hosts.append((entry.host, entry.hostName))
            } catch {
                problems += error.problems
                hosts.append(("", ""))
            }
        }
        guard problems.isEmpty else { throw ImportError.all(problems) }
        return HARDocument(url: url, name: name, maxEntryBytes: maxBytes, count: count, hosts: hosts, creator: reader.creator)
    }

    /// Reads the entries again, in order, once `load` found all of them sound.
    package func forEachEntry(_ body: (HAREntry) throws(ImportError) -> Void) throws(ImportError) {
        var reader = try HARStreamReader(url: url, name: name, maxEntryBytes: maxEntryBytes)
        while let raw = try reader.next() { try body(HARDocument.entry(raw, name: name)) }
    }

    /// One entry's bytes as a HAREntry; a syntax error is named by the file's line (the entry's
    /// first line plus the line inside it) and the entry's pointer.
    static func entry(_ raw: HARStreamReader.RawEntry, name: String) throws(ImportError) -> HAREntry {
        let json: JSONValue
        do { json = try JSONParser.parse(Data(raw.bytes)) } catch {
            let line = raw.line + error.line - 1
            let end = error.message.contains("JSON ends") ? " (is the file truncated? export it again)" : ""
            throw ImportError("\(name):\(line):\(error.column): not JSON in /log/entries/\(raw.index): \(error.message)\(end)")
        }
        do { return try HAREntry(json, index: raw.index) } catch { throw ImportError(error.problems.map { "\(name): \($0)" }) }
    }
}
