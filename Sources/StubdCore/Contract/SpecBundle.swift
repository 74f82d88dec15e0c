package import StubdEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import Foundation
import Yams

/// A spec and every file its `$ref`s reach, as one JSON document.
///
/// Each other file is placed under `x-stubd-files/<its path>` in the root document, and every
/// `$ref` is rewritten to point there (`schemas.yaml#/Weather` → `#/x-stubd-files/schemas.yaml/Weather`),
/// so the schema compiler, which follows references within one document, follows them across files,
/// and a circular reference between files is a cycle like any other. `location(of:)` turns such a
/// pointer back into the file and pointer the user wrote.
package struct SpecBundle: Sendable {
    package static let filesKey = "x-stubd-files"

    /// The root document, with the others under `filesKey`.
    package let document: JSONValue
    /// The root file's name, as the user gave it (for locations in messages).
    package let rootName: String
    /// Lines and columns in the files as the user wrote them, asked only for messages.
    let positions: SpecPositions
    /// For a document converted on load (Swagger 2.0): a converted place → where it was written.
    let origins: [(converted: String, original: String)]
    /// Numbers written past 2^53, by the pointer where they were written (`#/components/schemas/Id/maximum`),
    /// before any conversion: a Double cannot tell `maximum: 9223372036854775807` from 2^63.
    let literals: [String: NumberLiteral]

    /// Reads `spec` and what it references. Problems name the file and, for YAML or JSON syntax, the line.
    package static func load(spec: URL) throws(SpecLoadError) -> SpecBundle {
        var loader = Loader(rootDirectory: spec.deletingLastPathComponent().standardizedFileURL)
        let rootName = spec.lastPathComponent
        loader.rootName = rootName
        guard var root = loader.read(spec.standardizedFileURL, shownAs: rootName, at: "#") else {
            throw SpecLoadError(problems: loader.problems)
        }
        root = loader.rewrite(root, file: nil, directory: spec.deletingLastPathComponent().standardizedFileURL)
        // Files found while rewriting reference others in turn; each is rewritten once.
        var bundled: [String: JSONValue] = [:]
        while let (key, url) = loader.pending.popFirst() {
            guard bundled[key] == nil, let value = loader.read(url, shownAs: key, at: "#/" + filesKey + "/" + JSONPointer.escape(key)) else { continue }
            bundled[key] = .null
            bundled[key] = loader.rewrite(value, file: key, directory: url.deletingLastPathComponent())
        }
        guard loader.problems.isEmpty else { throw SpecLoadError(problems: loader.problems) }
        if !bundled.isEmpty, case .object(var members) = root {
            members[filesKey] = .object(bundled)
            root = .object(members)
        }
        return SpecBundle(document: root, rootName: rootName, positions: SpecPositions(sources: loader.sources), literals: loader.literals)
    }

    init(document: JSONValue, rootName: String, positions: SpecPositions, origins: [(converted: String, original: String)] = [],
         literals: [String: NumberLiteral] = [:]) {
        self.document = document
        self.rootName = rootName
        self.positions = positions
        self.origins = origins
        self.literals = literals
    }

    /// The same files read as `document` (filled in, or converted with `origins`).
    func with(document: JSONValue, origins: [(converted: String, original: String)]? = nil) -> SpecBundle {
        SpecBundle(document: document, rootName: rootName, positions: positions, origins: origins ?? self.origins, literals: literals)
    }

    /// The number written at a pointer into `document` (converted or not), for the schema compiler;
    /// nil when the spec writes no number past 2^53, so compiling it asks nothing.
    package var literalLookup: (@Sendable (String) -> NumberLiteral?)? {
        guard !literals.isEmpty else { return nil }
        let bundle = self
        return { pointer in bundle.literals[bundle.original(of: pointer)] }
    }

    /// Where a pointer into `document` was written, before any conversion (the longest converted prefix wins).
    func original(of pointer: String) -> String {
        var best: (converted: String, original: String)?
        for entry in origins where pointer == entry.converted || pointer.hasPrefix(entry.converted + "/") {
            if best == nil || entry.converted.count > best!.converted.count { best = entry }
        }
        guard let best else { return pointer }
        return best.original + pointer.dropFirst(best.converted.count)
    }

    /// The file a `#/...` pointer into `document` lies in, and the pointer within that file.
    func place(of pointer: String) -> (file: String, pointer: String) {
        let pointer = original(of: pointer)
        let prefix = "#/" + Self.filesKey + "/"
        guard pointer.hasPrefix(prefix) else { return (rootName, String(pointer.dropFirst())) }
        let rest = pointer.dropFirst(prefix.count)
        let fileToken = rest.prefix { $0 != "/" }
        let file = fileToken.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        return (file, String(rest.dropFirst(fileToken.count)))
    }

    /// What a `$ref` chain starting at `value` ends at, with the pointer of the last target (where its
    /// members are, for messages and for schemas compiled from it). A `$ref` naming nothing in the
    /// bundle is a problem placed where that `$ref` was written; a loop stops after 32 steps.
    package func resolve(_ value: JSONValue, at pointer: String) -> (value: JSONValue, pointer: String, problem: LoadProblem?) {
        var (value, pointer) = (value, pointer)
        for _ in 0..<32 {
            guard case .object(let members) = value, case .string(let ref)? = members["$ref"] else { return (value, pointer, nil) }
            guard let tokens = JSONPointer.tokens(ofFragment: ref), let target = JSONPointer.resolve(tokens, in: document) else {
                let what = ref.hasPrefix("#") ? location(of: ref) : ref
                return (value, pointer, problem(at: pointer, "$ref names nothing: there is no \(what)",
                                                hint: "point the $ref at an object that exists"))
            }
            (value, pointer) = (target, ref)
        }
        return (value, pointer, problem(at: pointer, "$ref chain longer than 32 steps (a loop?)"))
    }

    /// A problem at `pointer` (into `document`), named by the user's file, line and column, and the
    /// pointer within that file: `paths/things.yaml:4:5: #/get/responses/200: ...`.
    package func problem(at pointer: String, _ message: String, hint: String? = nil) -> LoadProblem {
        let (file, inFile) = place(of: pointer)
        let position = positions.of(inFile, in: file)
        return LoadProblem(file: file, line: position?.line, column: position?.column,
                           message: "#\(inFile): \(message)", hint: hint)
    }

    /// `openapi.yaml#/paths/...` or `schemas.yaml#/Weather/...`, for a `#/...` pointer into `document`.
    package func location(of pointer: String) -> String {
        Self.location(of: original(of: pointer), rootName: rootName)
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
        /// The root file's name, for problems found in it.
        var rootName = ""
        var problems: [LoadProblem] = []
        /// Each file's bytes, by the name messages give it, for `SpecPositions`.
        var sources: [String: Data] = [:]
        /// Files referenced but not yet read, by their key (path relative to the root's folder).
        var pending: [String: URL] = [:]
        var seen: Set<String> = []
        /// Numbers past 2^53 in every file read, by pointer into the bundle.
        var literals: [String: NumberLiteral] = [:]

        init(rootDirectory: URL) {
            self.rootDirectory = rootDirectory
        }

        /// `pointer`: where the file's document stands in the bundle, for its numbers' literals.
        mutating func read(_ url: URL, shownAs name: String, at pointer: String) -> JSONValue? {
            guard let data = FileManager.default.contents(atPath: url.path) else {
                problems.append(LoadProblem(file: name, message: "cannot read the spec file",
                                            hint: "check that \(url.path) exists and is readable"))
                return nil
            }
            sources[name] = data
            if url.pathExtension.lowercased() == "json" {
                do {
                    let (value, found) = try JSONParser.parseKeepingLiterals(data)
                    for (at, literal) in found { literals[pointer + at] = literal }
                    return value
                } catch {
                    problems.append(LoadProblem(file: name, line: error.line, column: error.column, message: "invalid JSON: \(error.message)"))
                    return nil
                }
            }
            let text = String(decoding: data, as: UTF8.self)
            // Same rule as manifests: an alias copies what it names, so 770 bytes of nested aliases
            // expand to gigabytes, and Yams hashes an alias used as a key in full while composing.
            if let found = YAMLAnchors.first(in: text) {
                problems.append(LoadProblem(
                    file: name, line: found.line, column: found.column,
                    message: "YAML \(found.isAlias ? "alias *" : "anchor &")\(found.name) is not allowed: stubd refuses anchors and aliases in specs, so a small file cannot expand into a huge one",
                    hint: "put the shared part under components and point at it with $ref; quote a value that starts with '*' or '&'"))
                return nil
            }
            do {
                guard let node = try Yams.compose(yaml: text, YAMLCoreSchema.resolver) else {
                    problems.append(LoadProblem(file: name, message: "the spec file is empty"))
                    return nil
                }
                let (value, found) = YAMLJSON.valueKeepingLiterals(node) { _, text in .string(text) }
                for (at, literal) in found { literals[pointer + at] = literal }
                return value
            } catch let error as YamlError {
                problems.append(Self.problem(error, in: text, file: name))
                return nil
            } catch {
                problems.append(LoadProblem(file: name, message: "invalid YAML"))
                return nil
            }
        }

        /// Where and what, never the text around it: Yams's own description quotes the line, and a
        /// file that is not YAML at all (a key file, an environment) would be printed in the log.
        static func problem(_ error: YamlError, in text: String, file: String) -> LoadProblem {
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
                return LoadProblem(file: file, line: mark.line, column: mark.column, message: "invalid YAML: \(problem)")
            case .reader(let problem, let offset, _, _):
                guard let offset else { return LoadProblem(file: file, message: "invalid YAML: \(problem)") }
                let before = text.utf8.prefix(offset)
                let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                let column = before.reversed().prefix { $0 != 0x0A }.count + 1
                return LoadProblem(file: file, line: line, column: column, message: "invalid YAML: \(problem)")
            case .duplicatedKeysInMapping(_, let context):
                return LoadProblem(file: file, line: context.mark.line, column: context.mark.column,
                                   message: "invalid YAML: a key appears more than once in one mapping")
            default:
                return LoadProblem(file: file, message: "invalid YAML")
            }
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
                // A discriminator's `mapping` values are references too (`models.yaml#/Cat`), unless
                // bare schema names (`Cat`, a name under the root's components/schemas).
                if case .string? = members["propertyName"], case .object(var mapping)? = members["mapping"] {
                    for case (let key, .string(let ref)) in mapping where Self.isReference(mappingValue: ref) {
                        mapping[key] = .string(target(of: ref, file: file, directory: directory))
                    }
                    members["mapping"] = .object(mapping)
                }
                return .object(members)
            default:
                return value
            }
        }

        /// `models.yaml#/Cat`, `#/components/schemas/Cat`, `cat.yaml`; not `Cat` nor `com.example.Cat`.
        static func isReference(mappingValue value: String) -> Bool {
            let lower = value.lowercased()
            return value.contains("#") || value.contains("/") || [".yaml", ".yml", ".json"].contains { lower.hasSuffix($0) }
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
                // Checked once per file: a refused one is named once, however often it is referenced.
                if let problem = confinement(of: url, ref: ref, file: file) {
                    problems.append(problem)
                } else {
                    pending[key] = url
                }
            }
            return "#/" + SpecBundle.filesKey + "/" + JSONPointer.escape(key) + fragment
        }

        /// Why `url` may not be read for a `$ref`: a spec names schemas beside it, so a reference
        /// that leaves its folder (`/proc/self/environ`, `../../.ssh/key`, a link pointing out) is
        /// refused rather than read, whatever it points at.
        func confinement(of url: URL, ref: String, file: String?) -> LoadProblem? {
            let shown = file ?? rootName
            let hint = "a spec's $ref may name files in \(rootDirectory.path) and below; copy the file there"
            let lexicalBase = rootDirectory.path.hasSuffix("/") ? rootDirectory.path : rootDirectory.path + "/"
            // Judged on the path as written first, so a missing file outside says "outside", not
            // whether it exists.
            guard url.path.hasPrefix(lexicalBase) else {
                return LoadProblem(file: shown, message: "$ref \(ref) is outside the spec's folder", hint: hint)
            }
            guard let real = Self.realPath(url.path) else {
                return LoadProblem(file: shown, message: "$ref \(ref): cannot read \(Self.relative(url, to: rootDirectory))",
                                   hint: "check that the file exists and is readable")
            }
            let folder = Self.realPath(rootDirectory.path) ?? rootDirectory.path
            guard real.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
                return LoadProblem(file: shown, message: "$ref \(ref) leads through a symbolic link outside the spec's folder", hint: hint)
            }
            var status = stat()
            guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                return LoadProblem(file: shown, message: "$ref \(ref) is not a regular file", hint: "a $ref names a YAML or JSON file")
            }
            return nil
        }

        /// The path with every symbolic link and `..` resolved, or nil when it does not exist.
        static func realPath(_ path: String) -> String? {
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }

        static func relative(_ url: URL, to directory: URL) -> String {
            let base = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
            return url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path
        }
    }
}
