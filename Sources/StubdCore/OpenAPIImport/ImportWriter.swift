import Foundation
import StubdProtocol

/// Writes an import into a Stubs folder without losing the user's edits.
///
/// `.stubd-import.json` (a dot-file: never served) records a digest of each file as the import
/// wrote it. On re-import a file is rewritten only when it is still what the last import wrote (or
/// equal to the new bytes, which leaves it untouched); a file that differs from both, because the
/// user edited it or wrote it by hand before any import, stops the whole import before anything is
/// written, naming each such file. `force` rewrites them anyway.
package struct ImportWriter {
    package static let recordName = ".stubd-import.json"

    package struct Result {
        package var written: [String] = []
        package var unchanged: [String] = []
    }

    let root: URL

    package init(root: URL) {
        self.root = root
    }

    package func write(_ files: [String: Data], force: Bool) throws(OpenAPIImportError) -> Result {
        let record = readRecord()
        var result = Result()
        var edited: [String] = []
        var pending: [(String, Data)] = []
        for path in files.keys.sorted() {
            let data = files[path]!
            let url = root.appendingPathComponent(path)
            guard let existing = FileManager.default.contents(atPath: url.path) else {
                pending.append((path, data))
                continue
            }
            if existing == data { result.unchanged.append(path); continue }
            if force || record[path] == Self.digest(existing) {
                pending.append((path, data))
            } else {
                edited.append(path)
            }
        }
        guard edited.isEmpty else {
            throw OpenAPIImportError(edited.map { "\(root.path)/\($0): changed since it was imported (or not written by an import)" }
                + ["nothing written: move your edits aside and import again, or pass --force to overwrite \(edited.count == 1 ? "it" : "them")"])
        }
        var newRecord = record
        for (path, data) in pending {
            let url = root.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url, options: .atomic)
            } catch {
                throw OpenAPIImportError(["\(url.path): cannot write: \(error.localizedDescription); check the folder's permissions"])
            }
            result.written.append(path)
        }
        for (path, data) in files { newRecord[path] = Self.digest(data) }
        var members: [String: JSONValue] = [:]
        for (path, digest) in newRecord { members[path] = .string(digest) }
        let text = Data((JSONValue.object(["files": .object(members)]).serialized + "\n").utf8)
        let recordURL = root.appendingPathComponent(Self.recordName)
        if FileManager.default.contents(atPath: recordURL.path) != text {
            do { try text.write(to: recordURL, options: .atomic) } catch {
                throw OpenAPIImportError(["\(recordURL.path): cannot write: \(error.localizedDescription)"])
            }
        }
        return result
    }

    private func readRecord() -> [String: String] {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(Self.recordName).path),
              case .object(let top)? = try? JSONParser.parse(data), case .object(let files)? = top["files"] else { return [:] }
        var out: [String: String] = [:]
        for (path, value) in files { if case .string(let d) = value { out[path] = d } }
        return out
    }

    /// FNV-1a 64 over the bytes and their length: enough to tell an edited file from the one written.
    static func digest(_ data: Data) -> String {
        String(FNV1a(data).value, radix: 16) + "-" + String(data.count)
    }
}
