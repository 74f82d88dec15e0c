package import Foundation
import StubdProtocol
import StubdEngine
#if canImport(Glibc)
import Glibc
/// write(2); inside ImportWriter the bare name is its own `write(_:…)`.
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Writes an import into a Stubs folder without losing the user's edits.
///
/// `.stubd-import.json` (a dot-file: never served) records a digest of each file as the import
/// wrote it. On re-import a file is rewritten only when it is still what the last import wrote (or
/// equal to the new bytes, which leaves it untouched); a file that differs from both, because the
/// user edited it or wrote it by hand before any import, stops the whole import before anything is
/// written, naming each such file. `force` rewrites them anyway.
///
/// Each file is written to a temporary name and renamed over the old one (a reader never sees half
/// a file), but not synced one by one: `Data.write(options: .atomic)` fsyncs every file, which was
/// 3,182 fsyncs and 7 s of a 16 s import of a large spec. The folder's file system is synced once,
/// after the last file and the record.
package struct ImportWriter {
    package static let recordName = ".stubd-import.json"

    package struct Result {
        package var written: [String] = []
        package var unchanged: [String] = []
        package var removed: [String] = []
    }

    let root: URL

    package init(root: URL) {
        self.root = root
    }

    /// `warnings` are kept in the record so the next import can say which of its warnings are new.
    /// `removing`: files an earlier import wrote that this one replaces (`--replace`): deleted when
    /// still as written, and an edited one stops the import like any other. `specs`: what the
    /// record says each spec in the folder wrote.
    package func write(_ files: [String: Data], removing: [String] = [], warnings: [String] = [], specs: [ImportedSpec] = [],
                       force: Bool) throws(OpenAPIImportError) -> Result {
        let record = readRecord().files
        var result = Result()
        var edited: [String] = []
        var pending: [(String, Data)] = []
        var doomed: [String] = []
        for path in removing.sorted() where files[path] == nil {
            let url = root.appendingPathComponent(path)
            guard let existing = FileManager.default.contents(atPath: url.path) else { continue }
            if force || record[path] == Self.digest(existing) { doomed.append(path) } else { edited.append(path) }
        }
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
        for path in doomed {
            try? FileManager.default.removeItem(at: root.appendingPathComponent(path))
            newRecord[path] = nil
            result.removed.append(path)
        }
        for (path, data) in pending {
            let url = root.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Self.replace(url, with: data)
            } catch {
                throw OpenAPIImportError(["\(url.path): cannot write: \(error.localizedDescription); check the folder's permissions"])
            }
            result.written.append(path)
        }
        for (path, data) in files { newRecord[path] = Self.digest(data) }
        var members: [String: JSONValue] = [:]
        for (path, digest) in newRecord { members[path] = .string(digest) }
        var top: [String: JSONValue] = ["files": .object(members), "warnings": .array(warnings.map(JSONValue.string))]
        if !specs.isEmpty {
            var bySpec: [String: JSONValue] = [:]
            for spec in specs { bySpec[spec.name] = spec.json }
            top["specs"] = .object(bySpec)
            // The order they were first imported in, which is the order of their parts of stubd.yml.
            top["specOrder"] = .array(specs.map { .string($0.name) })
        }
        let text = Data((JSONValue.object(top).serialized + "\n").utf8)
        let recordURL = root.appendingPathComponent(Self.recordName)
        let recordChanged = FileManager.default.contents(atPath: recordURL.path) != text
        if recordChanged {
            do { try Self.replace(recordURL, with: text) } catch {
                throw OpenAPIImportError(["\(recordURL.path): cannot write: \(error.localizedDescription)"])
            }
        }
        if !pending.isEmpty || !doomed.isEmpty || recordChanged { Self.syncFileSystem(of: root) }
        return result
    }

    /// `url` replaced by `data` in one rename: written beside it under a dot-name first (never served).
    private static func replace(_ url: URL, with data: Data) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).stubd-import-\(getpid())")
        do { try writeUnsynced(data, to: temporary) } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let error = posixError(errno)
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// `data` into a new or emptied file with write(2), and no sync: Foundation's `Data.write` fsyncs
    /// each file on Linux even without `.atomic` (26 sync calls for a 12-file import); the import
    /// syncs once at the end instead.
    static func writeUnsynced(_ data: Data, to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw posixError(errno) }
        defer { close(fd) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw n < 0 ? posixError(errno) : posixError(EIO) }
                offset += n
            }
        }
    }

    private static func posixError(_ code: Int32) -> NSError {
        NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(code))])
    }

    /// The warnings the last import into this folder gave, to tell new ones apart.
    package var previousWarnings: Set<String> { readRecord().warnings }

    /// The specs imported into this folder. A record from before specs were recorded names its
    /// spec in `stubd.yml`'s first line (`# Written by \`stubd openapi import NAME\``).
    package var importedSpecs: [ImportedSpec] {
        let record = readRecord()
        if !record.specs.isEmpty { return record.specs }
        guard !record.files.isEmpty,
              let manifest = FileManager.default.contents(atPath: root.appendingPathComponent("stubd.yml").path),
              let first = String(decoding: manifest.prefix(400), as: UTF8.self).split(separator: "\n").first,
              let start = first.range(of: "stubd openapi import "), let end = first[start.upperBound...].firstIndex(of: "`")
        else { return [] }
        let name = String(first[start.upperBound..<end])
        return [ImportedSpec(name: name, files: record.files.keys.filter { $0 != "stubd.yml" }.sorted(), routes: nil, routeCount: 0)]
    }

    /// One sync for the whole import, instead of one per file: syncfs(2) on the folder's file system
    /// (its data and metadata, so the renames too). Glibc has syncfs but Swift's Glibc module does
    /// not export it (a GNU extension), so it is looked up by name; where it is missing, sync(2).
    private static func syncFileSystem(of folder: URL) {
        #if os(Linux)
        typealias SyncFS = @convention(c) (Int32) -> Int32
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY)
        if fd >= 0 {
            defer { close(fd) }
            if let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "syncfs"),
               unsafeBitCast(symbol, to: SyncFS.self)(fd) == 0 { return }
        }
        #endif
        sync()
    }

    private func readRecord() -> (files: [String: String], warnings: Set<String>, specs: [ImportedSpec]) {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(Self.recordName).path),
              case .object(let top)? = try? JSONParser.parse(data), case .object(let files)? = top["files"] else { return ([:], [], []) }
        var out: [String: String] = [:]
        for (path, value) in files { if case .string(let d) = value { out[path] = d } }
        var warnings: Set<String> = []
        if case .array(let list)? = top["warnings"] { for case .string(let w) in list { warnings.insert(w) } }
        var specs: [ImportedSpec] = []
        if case .object(let bySpec)? = top["specs"] {
            var order: [String] = []
            if case .array(let names)? = top["specOrder"] { for case .string(let name) in names where bySpec[name] != nil { order.append(name) } }
            order += bySpec.keys.sorted().filter { !order.contains($0) }
            for name in order { if let spec = ImportedSpec(name: name, json: bySpec[name]!) { specs.append(spec) } }
        }
        return (out, warnings, specs)
    }

    /// FNV-1a 64 over the bytes and their length: enough to tell an edited file from the one written.
    static func digest(_ data: Data) -> String {
        String(FNV1a(data).value, radix: 16) + "-" + String(data.count)
    }
}
