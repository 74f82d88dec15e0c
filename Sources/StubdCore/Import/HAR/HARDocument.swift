import Foundation

/// A HAR file read whole and checked entry by entry before anything is written: a truncated file, an
/// entry that makes no sense or base64 that is not stops the import with nothing written.
///
/// Read whole, not streamed, so it is capped (`maxBytes`): the file is refused by its size before a
/// byte is read. The import's peak memory is about 3.5 times the file (a 106 MB HAR of 5,000
/// requests: 377 MB); a browser's HAR of a long session is tens of megabytes, and the default cap
/// (256 MiB, about 900 MB at the peak) leaves room for ten times that.
package struct HARDocument: Sendable {
    package static let defaultMaxBytes = ImportFile.defaultMaxBytes

    package let entries: [HAREntry]
    /// `log.creator.name` and version, for the report (`mitmproxy 11.0.2`, `WebInspector 537.36`).
    package let creator: String

    /// `name`: the file as the user gave it, for messages (its path by default).
    package static func load(_ url: URL, name: String? = nil, maxBytes: Int = defaultMaxBytes) throws(ImportError) -> HARDocument {
        let name = name ?? url.path
        let data = try ImportFile.read(url, name: name, kind: "a HAR file", maxBytes: maxBytes,
                                       overSize: "; export fewer requests (a HAR viewer's filter, or --host at export), or raise --max-size if this machine has the memory")
        return try parse(data, name: name)
    }

    package static func parse(_ data: Data, name: String) throws(ImportError) -> HARDocument {
        let json: JSONValue
        do { json = try JSONParser.parse(data) } catch {
            let end = error.message.contains("JSON ends") ? " (is the file truncated? export it again)" : ""
            throw ImportError("\(name):\(error.line):\(error.column): not JSON: \(error.message)\(end); nothing written")
        }
        guard case .object(let top) = json, case .object(let log)? = top["log"] else {
            throw ImportError("\(name): not a HAR (no top-level \"log\" object); a HAR 1.2 file is {\"log\": {\"entries\": [...]}}")
        }
        guard case .array(let items)? = log["entries"] else { throw ImportError("\(name): /log/entries is missing or not a list") }
        var entries: [HAREntry] = []
        var problems: [String] = []
        for (i, item) in items.enumerated() {
            do { entries.append(try HAREntry(item, index: i)) } catch { problems += error.problems.map { "\(name): \($0)" } }
        }
        guard problems.isEmpty else {
            throw ImportError.all(problems)
        }
        var creator = ""
        if case .object(let c)? = log["creator"], case .string(let n)? = c["name"] {
            creator = n
            if case .string(let v)? = c["version"] { creator += " " + v }
        }
        return HARDocument(entries: entries, creator: creator)
    }
}
