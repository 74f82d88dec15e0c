import Foundation
import StubdEngine
/// What a spec may leave out without making its contract ambiguous, filled in with a warning each:
/// a missing `info` (or its `title` / `version`), a response's `description`, a parameter's or a
/// header's `schema`. OpenAPI requires them, but nothing stubd checks depends on them, and a spec
/// refused for a missing description is a spec a user cannot mock at all.
struct SpecLeniency {
    private var document: JSONValue
    private let bundle: SpecBundle
    private(set) var warnings: [LoadProblem] = []
    /// Each `$ref` that names nothing, where it is written: the walk meets every one a reader follows.
    private(set) var problems: [LoadProblem] = []
    /// Each object filled in once, however many operations reach it through `$ref`.
    private var visited: Set<String> = []

    /// The bundle's document with what was missing filled in, and one warning per key filled in.
    static func apply(to bundle: SpecBundle) -> (document: JSONValue, warnings: [LoadProblem], problems: [LoadProblem]) {
        var leniency = SpecLeniency(document: bundle.document, bundle: bundle)
        leniency.run()
        return (leniency.document, leniency.warnings, leniency.problems)
    }

    private init(document: JSONValue, bundle: SpecBundle) {
        self.document = document
        self.bundle = bundle
    }

    private mutating func run() {
        stringEnums()
        guard case .object(let root) = document else { return }
        if root["info"] == nil {
            fill("#", "info", with: .object(["title": .string(bundle.rootName), "version": .string("")]),
                 "no 'info'; read as if it named the API after its file")
        } else if case .object(let info)? = root["info"] {
            if info["title"] == nil { fill("#/info", "title", with: .string(bundle.rootName), "no 'title'; read as the file's name") }
            if info["version"] == nil { fill("#/info", "version", with: .string(""), "no 'version'; read as empty") }
            // Links for people, which no answer depends on: one that is not a URL (iSendPro's
            // `termsOfService: cf CGV iSendPro.com`) is left out rather than refusing the spec.
            if case .string(let text)? = info["termsOfService"], !Self.isURL(text) { remove("#/info", "termsOfService", text) }
            for (object, key) in [("contact", "url"), ("license", "url")] {
                if case .object(let part)? = info[object], case .string(let text)? = part[key], !Self.isURL(text) {
                    remove("#/info/\(object)", key, text)
                }
            }
        }
        for container in ["paths", "webhooks"] {
            guard case .object(let items)? = root[container] else { continue }
            for key in items.keys.sorted() { pathItem("#/\(container)/" + JSONPointer.escape(key)) }
        }
        guard case .object(let components)? = root["components"] else { return }
        for section in ["responses", "parameters", "headers", "pathItems"] {
            guard case .object(let entries)? = components[section] else { continue }
            for name in entries.keys.sorted() {
                let pointer = "#/components/\(section)/" + JSONPointer.escape(name)
                switch section {
                case "responses": response(pointer)
                case "parameters": parameter(pointer)
                case "headers": header(pointer)
                default: pathItem(pointer)
                }
            }
        }
    }

    /// The object at `pointer` after its `$ref`s, and where that is; nil when it is not an object or
    /// was seen before.
    private mutating func target(_ pointer: String) -> (members: [String: JSONValue], pointer: String)? {
        guard let tokens = JSONPointer.tokens(ofFragment: pointer), let value = JSONPointer.resolve(tokens, in: document) else { return nil }
        let (resolved, at, problem) = bundle.resolve(value, at: pointer)
        if let problem {
            if !problems.contains(problem) { problems.append(problem) }
            return nil
        }
        guard case .object(let members) = resolved, visited.insert(at).inserted else { return nil }
        return (members, at)
    }

    private mutating func pathItem(_ pointer: String) {
        guard let found = target(pointer) else { return }
        let (item, at) = found
        parameters(item["parameters"], at + "/parameters")
        for method in ContractOperation.methodNames where item[method] != nil {
            guard let foundOp = target(at + "/" + method) else { continue }
            let (op, opAt) = foundOp
            parameters(op["parameters"], opAt + "/parameters")
            if op["requestBody"] != nil { _ = target(opAt + "/requestBody") }
            if case .object(let responses)? = op["responses"] {
                for status in responses.keys.sorted() { response(opAt + "/responses/" + JSONPointer.escape(status)) }
            }
        }
    }

    private mutating func parameters(_ list: JSONValue?, _ pointer: String) {
        guard case .array(let items)? = list else { return }
        for index in items.indices { parameter("\(pointer)/\(index)") }
    }

    private mutating func parameter(_ pointer: String) {
        guard let found = target(pointer), found.members["schema"] == nil, found.members["content"] == nil else { return }
        let at = found.pointer
        fill(at, "schema", with: .object([:]), "no 'schema' (nor 'content'); any value is accepted")
    }

    private mutating func response(_ pointer: String) {
        guard let found = target(pointer) else { return }
        let (r, at) = found
        if r["description"] == nil { fill(at, "description", with: .string(""), "no 'description'; read as empty") }
        if case .object(let headers)? = r["headers"] {
            for name in headers.keys.sorted() { header(at + "/headers/" + JSONPointer.escape(name)) }
        }
    }

    private mutating func header(_ pointer: String) {
        guard let found = target(pointer), found.members["schema"] == nil, found.members["content"] == nil else { return }
        let at = found.pointer
        fill(at, "schema", with: .object([:]), "no 'schema' (nor 'content'); any value is accepted")
    }

    /// A string schema's `enum` holding a number or a boolean (`enum: [a, 1, b]`: YAML reads an
    /// unquoted `1` as a number): OpenAPIKit refused the whole document for it (TomTom's, issue 58).
    /// Read as the text it spells (`"1"`), one warning per value. Examples, defaults and `x-`
    /// extensions are data, not schemas, and are not walked.
    private mutating func stringEnums() {
        var found: [(object: [String], values: [JSONValue], changed: [Int])] = []
        /// A member that is only a `$ref` to what should stand there: the object holding it, the key, the value it names.
        var referenced: [(object: [String], key: String, value: JSONValue, ref: String)] = []
        func walk(_ node: JSONValue, _ tokens: [String]) {
            switch node {
            case .object(let members):
                // `properties: {$ref: …}` (DigitalOcean's): the map of properties kept elsewhere; a
                // property named `$ref` would hold a schema (an object), not a string. `description:
                // {$ref: …}` naming text (DigitalOcean's tags, for Redoc); one naming an object is a
                // schema for a property called `description`.
                for key in ["description", "properties"] {
                    guard case .object(let member)? = members[key], member.count == 1, case .string(let ref)? = member["$ref"] else { continue }
                    let (value, _, problem) = bundle.resolve(.object(member), at: "#" + (tokens + [key]).map { "/" + JSONPointer.escape($0) }.joined())
                    guard problem == nil else { continue }
                    switch (key, value) {
                    case ("description", .string):
                        referenced.append((tokens, key, value, ref))
                    case ("properties", .object(let named))
                        where named.values.allSatisfy({ if case .object = $0 { true } else { $0 == .bool(true) || $0 == .bool(false) } }):
                        referenced.append((tokens, key, value, ref))
                    default:
                        break
                    }
                }
                if members["type"] == .string("string"), case .array(let values)? = members["enum"] {
                    let changed = values.indices.filter { if case .number = values[$0] { true } else if case .bool = values[$0] { true } else { false } }
                    if !changed.isEmpty { found.append((tokens, values, changed)) }
                }
                // The other files of a split spec are under `x-stubd-files`: walked like the root's own.
                for (key, child) in members where !Self.dataKeys.contains(key) && (!key.hasPrefix("x-") || (tokens.isEmpty && key == SpecBundle.filesKey)) {
                    walk(child, tokens + [key])
                }
            case .array(let items):
                for (i, item) in items.enumerated() { walk(item, tokens + [String(i)]) }
            default:
                break
            }
        }
        walk(document, [])
        for (object, values, changed) in found {
            var text = values
            let pointer = "#" + object.map { "/" + JSONPointer.escape($0) }.joined() + "/enum"
            for i in changed {
                text[i] = .string(values[i].serialized)
                warnings.append(bundle.problem(at: pointer + "/\(i)",
                                               "enum value \(values[i].serialized) of a string schema is not a string; read as \"\(values[i].serialized)\"",
                                               hint: "quote it in the spec: '\(values[i].serialized)'"))
            }
            document = Self.setting("enum", to: .array(text), at: object[...], in: document)
        }
        // Descriptions said first, then properties, each in the order met.
        for (object, key, value, ref) in referenced.filter({ $0.key == "description" }) + referenced.filter({ $0.key == "properties" }) {
            let pointer = "#" + object.map { "/" + JSONPointer.escape($0) }.joined() + "/" + key
            let named = ref.hasPrefix("#") ? bundle.location(of: ref) : ref
            warnings.append(key == "description"
                ? bundle.problem(at: pointer, "'description' is a $ref (\(named)); read as the text it names", hint: "OpenAPI wants the text itself")
                : bundle.problem(at: pointer, "'properties' is a $ref (\(named)); read as the map of properties it names",
                                 hint: "OpenAPI wants the map itself: properties: { id: { $ref: … } }"))
            document = Self.setting(key, to: value, at: object[...], in: document)
        }
    }

    /// Members whose values are data, never a schema to fix.
    private static let dataKeys: Set<String> = ["example", "examples", "default", "const", "enum"]

    /// What OpenAPIKit takes for a URL: no white space, and Foundation reads it as one.
    private static func isURL(_ text: String) -> Bool {
        !text.isEmpty && !text.contains(where: \.isWhitespace) && URL(string: text) != nil
    }

    private mutating func remove(_ pointer: String, _ key: String, _ text: String) {
        guard let tokens = JSONPointer.tokens(ofFragment: pointer) else { return }
        document = Self.setting(key, to: nil, at: tokens[...], in: document)
        warnings.append(bundle.problem(at: pointer + "/" + key, "'\(key)' is not a URL (\(text)); left out", hint: "OpenAPI wants a URL here"))
    }

    private mutating func fill(_ pointer: String, _ key: String, with value: JSONValue, _ warning: String) {
        guard let tokens = JSONPointer.tokens(ofFragment: pointer) else { return }
        document = Self.setting(key, to: value, at: tokens[...], in: document)
        warnings.append(bundle.problem(at: pointer, warning))
    }

    /// `node` with `key` set to `value` (removed for nil) in the object `tokens` lead to.
    private static func setting(_ key: String, to value: JSONValue?, at tokens: ArraySlice<String>, in node: JSONValue) -> JSONValue {
        guard let first = tokens.first else {
            guard case .object(var members) = node else { return node }
            members[key] = value
            return .object(members)
        }
        switch node {
        case .object(var members):
            guard let child = members[first] else { return node }
            members[first] = nil   // one copy of the child while it is rewritten
            members[first] = setting(key, to: value, at: tokens.dropFirst(), in: child)
            return .object(members)
        case .array(var items):
            guard let index = Int(first), items.indices.contains(index) else { return node }
            items[index] = setting(key, to: value, at: tokens.dropFirst(), in: items[index])
            return .array(items)
        default:
            return node
        }
    }
}
