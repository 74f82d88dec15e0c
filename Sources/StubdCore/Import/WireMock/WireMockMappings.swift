import Foundation
import StubdEngine

/// The WireMock mappings to import: a folder holding `mappings/` and `__files/` (WireMock's
/// `--root-dir`), a `mappings/` folder itself, or one mapping file. Every file is read and parsed
/// before anything is written; a file that is not JSON, or JSON that is not a mapping, stops the
/// import naming the file (and line and column, or the JSON pointer).
struct WireMockMappings {
    let mappings: [WireMockMapping]
    /// Where `bodyFileName` is read from.
    let files: URL
    /// The folder imported (WireMock's root): no file is read whose real path is outside it.
    let root: ImportRoot
    /// How many mapping files were read.
    let fileCount: Int

    static func load(_ url: URL, name: String, maxBytes: Int) throws(ImportError) -> WireMockMappings {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else { throw ImportError("\(name): no such file or folder") }
        var mappingFiles: [(url: URL, label: String)] = []
        let files: URL
        let root: ImportRoot
        var problems: [String] = []
        if isDirectory.boolValue {
            let nested = url.appendingPathComponent("mappings")
            let folder = fm.fileExists(atPath: nested.path) ? nested : url
            // `mappings/` beside `__files/` (WireMock's root), or `__files/` inside the folder given.
            files = folder == nested || !fm.fileExists(atPath: url.appendingPathComponent("__files").path)
                ? folder.deletingLastPathComponent().appendingPathComponent("__files") : url.appendingPathComponent("__files")
            root = ImportRoot(files.deletingLastPathComponent())
            // A `mappings` that is a link out: said as such, rather than as a folder with no mappings.
            if folder == nested {
                do { _ = try root.resolve(nested, label: "mappings/") } catch { throw ImportError.all(error.problems) }
            }
            let base = url.standardizedFileURL.path
            guard let walker = fm.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
                throw ImportError("\(name): cannot list the folder (check its permissions)")
            }
            for case let file as URL in walker {
                if file.lastPathComponent == "__files" { walker.skipDescendants(); continue }
                guard file.pathExtension.lowercased() == "json", (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
                let label = String(file.standardizedFileURL.path.dropFirst(base.count + 1))
                // A mapping file may be a link out of the folder.
                do { guard try root.resolve(file, label: label) != nil else { continue } } catch { problems += error.problems; continue }
                mappingFiles.append((file, label))
            }
            guard problems.isEmpty else { throw ImportError.all(problems) }
            mappingFiles.sort { $0.label < $1.label }
            guard !mappingFiles.isEmpty else {
                throw ImportError("\(name) holds no mapping (.json) files: give WireMock's root folder (with mappings/ and __files/), its mappings/ folder, or a mapping file; nothing written")
            }
        } else {
            let parent = url.deletingLastPathComponent()
            files = parent.lastPathComponent == "mappings" ? parent.deletingLastPathComponent().appendingPathComponent("__files") : parent.appendingPathComponent("__files")
            // The file named is read as named; what it names is read only from inside its folder.
            root = ImportRoot(files.deletingLastPathComponent())
            mappingFiles = [(url, url.lastPathComponent)]
        }

        var mappings: [WireMockMapping] = []
        for (file, label) in mappingFiles {
            let size = ((try? fm.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.intValue ?? 0
            guard size <= maxBytes else {
                problems.append("\(label) is \(size >> 20) MiB, over the \(maxBytes >> 20) MiB --max-size (raise it if this machine has the memory)")
                continue
            }
            guard let data = fm.contents(atPath: file.path) else { problems.append("\(label): cannot read (check its permissions)"); continue }
            let json: JSONValue
            do { json = try JSONParser.parse(data) } catch {
                let end = error.message.contains("JSON ends") ? " (is the file truncated?)" : ""
                problems.append("\(label):\(error.line):\(error.column): not JSON: \(error.message)\(end)")
                continue
            }
            switch json {
            case .object(let top) where top["mappings"] != nil:
                guard case .array(let items)? = top["mappings"] else { problems.append("\(label):/mappings: must be a list of mappings"); continue }
                for (i, item) in items.enumerated() {
                    guard case .object(let mapping) = item else { problems.append("\(label):/mappings/\(i): a mapping must be an object"); continue }
                    mappings.append(WireMockMapping(file: label, pointer: "/mappings/\(i)", json: mapping))
                }
            case .object(let top) where top["request"] != nil:
                mappings.append(WireMockMapping(file: label, pointer: "", json: top))
            default:
                problems.append("\(label): not a WireMock mapping: expected {\"request\": …, \"response\": …} or {\"mappings\": [...]} "
                                + "(WireMock.Net's PascalCase \"Request\"/\"Response\" is another format)")
            }
        }
        guard problems.isEmpty else { throw ImportError.all(problems) }
        return WireMockMappings(mappings: mappings, files: files, root: root, fileCount: mappingFiles.count)
    }
}
