import Foundation
import Yams

/// A spec and every file its `$ref`s reach, as one JSON document.
///
/// Each other file is placed under `x-stubd-files/<its path>` in the root document, and every
/// `$ref` is rewritten to point there (`schemas.yaml#/Weather` → `#/x-stubd-files/schemas.yaml/Weather`),
/// so the schema compiler, which follows references within one document, follows them across files,
/// and a circular reference between files is a cycle like any other. `location(of:)` turns such a
/// pointer back into the file and pointer the user wrote.
package struct SpecBundle {
    package static let filesKey = "x-stubd-files"

    /// The root document, with the others under `filesKey`.
    package let document: JSONValue
    /// The root file's name, as the user gave it (for locations in messages).
    package let rootName: String

    /// Reads `spec` and what it references. Problems name the file and, for YAML or JSON syntax, the line.
    package static func load(spec: URL) throws(SpecLoadError) -> SpecBundle {
        var loader = Loader(rootDirectory: spec.deletingLastPathComponent().standardizedFileURL)
        let rootName = spec.lastPathComponent
        guard var root = loader.read(spec.standardizedFileURL, shownAs: rootName) else {
            throw SpecLoadError(problems: loader.problems)
        }
        root = loader.rewrite(root, file: nil, directory: spec.deletingLastPathComponent().standardizedFileURL)
        // Files found while rewriting reference others in turn; each is rewritten once.
        var bundled: [String: JSONValue] = [:]
        while let (key, url) = loader.pending.popFirst() {
            guard bundled[key] == nil, let value = loader.read(url, shownAs: key) else { continue }
            bundled[key] = .null
            bundled[key] = loader.rewrite(value, file: key, directory: url.deletingLastPathComponent())
        }
        guard loader.problems.isEmpty else { throw SpecLoadError(problems: loader.problems) }
        if !bundled.isEmpty, case .object(var members) = root {
            members[filesKey] = .object(bundled)
            root = .object(members)
        }
        return SpecBundle(document: root, rootName: rootName)
    }

    /// `openapi.yaml#/paths/...` or `schemas.yaml#/Weather/...`, for a `#/...` pointer into `document`.
    package func location(of pointer: String) -> String {
        Self.location(of: pointer, rootName: rootName)
    }

    package static func location(of pointer: String, rootName: String) -> String {
        let prefix = "#/" + Self.filesKey + "/"
        guard pointer.hasPrefix(prefix) else { return rootName + pointer }
        let rest = pointer.dropFirst(prefix.count)
        let fileToken = rest.prefix { $0 != "/" }
        let file = fileToken.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        return file + "#" + rest.dropFirst(fileToken.count)
    }

    private struct Loader {
        let rootDirectory: URL
        var problems: [LoadProblem] = []
        /// Files referenced but not yet read, by their key (path relative to the root's folder).
        var pending: [String: URL] = [:]
        var seen: Set<String> = []

        init(rootDirectory: URL) {
            self.rootDirectory = rootDirectory
        }

        mutating func read(_ url: URL, shownAs name: String) -> JSONValue? {
            guard let data = FileManager.default.contents(atPath: url.path) else {
                problems.append(LoadProblem(file: name, message: "cannot read the spec file",
                                            hint: "check that \(url.path) exists and is readable"))
                return nil
            }
            if url.pathExtension.lowercased() == "json" {
                do { return try JSONParser.parse(data) } catch {
                    problems.append(LoadProblem(file: name, line: error.line, column: error.column, message: "invalid JSON: \(error.message)"))
                    return nil
                }
            }
            do {
                guard let node = try Yams.compose(yaml: String(decoding: data, as: UTF8.self)) else {
                    problems.append(LoadProblem(file: name, message: "the spec file is empty"))
                    return nil
                }
                return Self.json(node)
            } catch let error as YamlError {
                if case .scanner(_, let problem, let mark, _) = error {
                    problems.append(LoadProblem(file: name, line: mark.line, column: mark.column, message: "invalid YAML: \(problem)"))
                } else if case .parser(_, let problem, let mark, _) = error {
                    problems.append(LoadProblem(file: name, line: mark.line, column: mark.column, message: "invalid YAML: \(problem)"))
                } else {
                    problems.append(LoadProblem(file: name, message: "invalid YAML: \(error)"))
                }
                return nil
            } catch {
                problems.append(LoadProblem(file: name, message: "invalid YAML: \(error)"))
                return nil
            }
        }

        static func json(_ node: Node) -> JSONValue {
            YAMLJSON.value(node) { _, text in .string(text) }
        }

        /// `value` with every `$ref` made a pointer into the bundle. `file` is nil for the root document.
        mutating func rewrite(_ value: JSONValue, file: String?, directory: URL) -> JSONValue {
            switch value {
            case .array(let items):
                return .array(items.map { rewrite($0, file: file, directory: directory) })
            case .object(var members):
                // An `example` is data, not spec: a `$ref` key in it is the example's own.
                for (key, member) in members where key != "$ref" && key != "example" {
                    members[key] = rewrite(member, file: file, directory: directory)
                }
                if case .string(let ref)? = members["$ref"] {
                    members["$ref"] = .string(target(of: ref, file: file, directory: directory))
                }
                return .object(members)
            default:
                return value
            }
        }

        /// The pointer into the bundle for a `$ref` written in `file`.
        mutating func target(of ref: String, file: String?, directory: URL) -> String {
            let hash = ref.firstIndex(of: "#")
            let path = String(ref[..<(hash ?? ref.endIndex)])
            let fragment = hash.map { String(ref[ref.index(after: $0)...]) } ?? ""
            if path.isEmpty {
                guard let file else { return ref }
                return "#/" + SpecBundle.filesKey + "/" + JSONPointer.escape(file) + fragment
            }
            // Remote references are left as written: the compiler names them as unsupported.
            if path.contains("://") { return ref }
            let url = URL(fileURLWithPath: path, relativeTo: directory).standardizedFileURL
            let key = Self.relative(url, to: rootDirectory)
            if !seen.contains(key) {
                seen.insert(key)
                pending[key] = url
            }
            return "#/" + SpecBundle.filesKey + "/" + JSONPointer.escape(key) + fragment
        }

        static func relative(_ url: URL, to directory: URL) -> String {
            let base = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
            return url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path
        }
    }
}
