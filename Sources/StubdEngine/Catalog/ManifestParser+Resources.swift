import Foundation
import Yams

extension ManifestParser {
    /// One entry of `resources:`: a collection at a path, answered per session (see `ResourceDefinition`).
    mutating func parseResource(_ node: Node) -> ResourceDefinition? {
        guard let map = mapping(node, "a resource") else { return nil }
        checkKeys(map, ["name", "path", "id", "idStrategy", "seed", "items", "total", "maxItems", "maxItemBytes"], in: "a resource")
        let before = problems.items.count
        guard let pathNode = map["path"], let pathText = string(pathNode, "path") else {
            add(node, "a resource needs a 'path'", hint: "resources: [{ path: /todos }]")
            return nil
        }
        var pattern: PathPattern?
        do throws(PatternError) {
            let parsed = try PathPattern(parsing: pathText)
            if parsed.segments.contains(.wildcard) {
                add(pathNode, "a resource's path cannot end in '/**'", hint: "the items' own paths are the collection's path + /{id}")
            } else {
                pattern = parsed
            }
        } catch {
            add(pathNode, "bad resource path: \(error.description)")
        }
        // `/users/{userId}/todos` → todos: the last literal segment names it unless `name:` does.
        let fallbackName = pattern?.segments.reversed().compactMap { (segment: PatternSegment) -> String? in
            if case .literal(let literal) = segment { return literal }
            return nil
        }.first
        let name = map["name"].flatMap { string($0, "name") } ?? fallbackName ?? ""
        if name.isEmpty || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) {
            add(map["name"] ?? node, "a resource's name is letters, digits, '_' or '-' (it names its routes and its admin URL), was '\(name)'",
                hint: "name: todos")
        }
        let idField = map["id"].flatMap { string($0, "id") } ?? "id"
        if idField.isEmpty { add(map["id"], "'id' names the field that holds an item's id", hint: "id: id") }
        var strategy = ResourceIDStrategy.increment
        if let s = map["idStrategy"], let text = string(s, "idStrategy") {
            if let known = ResourceIDStrategy(rawValue: text) { strategy = known }
            else { add(s, "unknown idStrategy '\(text)'", hint: "one of " + ResourceIDStrategy.allCases.map(\.rawValue).joined(separator: ", ")) }
        }
        var total = ResourceTotalStyle.header
        if let t = map["total"], let text = string(t, "total") {
            if let known = ResourceTotalStyle(rawValue: text) { total = known }
            else { add(t, "unknown total '\(text)'", hint: "header (X-Total-Count) or envelope ({\"items\": [...], \"total\": N})") }
        }
        let maxItems = positive(map["maxItems"], "maxItems") ?? ResourceDefinition.defaultMaxItems
        let maxItemBytes = positive(map["maxItemBytes"], "maxItemBytes") ?? ResourceDefinition.defaultMaxItemBytes
        guard problems.items.count == before, let pattern else { return nil }

        let line = node.mark?.line ?? 0
        let definition = ResourceDefinition(name: name, pattern: pattern, idField: idField, idStrategy: strategy, total: total,
                                            seed: [], maxItems: maxItems, maxItemBytes: maxItemBytes, file: file, line: line)
        var seed: [JSONValue] = []
        switch (map["items"], map["seed"]) {
        case (let inline?, nil):
            guard case .sequence(let items) = inline else {
                add(inline, "'items' is a list of the items every session starts with")
                return nil
            }
            var seen = Set<String>()
            for (i, item) in items.enumerated() {
                let value = json(item)
                if let why = seedProblem(value, i, definition, seen: &seen) { add(item, why) } else { seed.append(value) }
            }
        case (nil, let seedNode?):
            guard let relative = string(seedNode, "seed") else { return nil }
            guard let items = seedFile(relative, seedNode, definition) else { return nil }
            seed = items
        case (_?, _?):
            add(node, "a resource takes 'items' or a 'seed' file, not both")
            return nil
        case (nil, nil):
            // The convention: `__files/resources/NAME.json`, beside the other bodies only the manifest names.
            let conventional = "__files/resources/\(name).json"
            if FileManager.default.fileExists(atPath: reader.root.appendingPathComponent(conventional).path) {
                guard let items = seedFile(conventional, nil, definition) else { return nil }
                seed = items
            }
        }
        if seed.count > maxItems {
            add(map["maxItems"] ?? node, "the seed holds \(seed.count) items, more than maxItems (\(maxItems))", hint: "raise maxItems")
            return nil
        }
        return ResourceDefinition(name: name, pattern: pattern, idField: idField, idStrategy: strategy, total: total,
                                  seed: seed, maxItems: maxItems, maxItemBytes: maxItemBytes, file: file, line: line)
    }

    private mutating func positive(_ node: Node?, _ what: String) -> Int? {
        guard let node, let n = int(node, what) else { return nil }
        if n < 1 { add(node, "'\(what)' must be at least 1"); return nil }
        return n
    }

    /// A seed file's items; its problems are the file's, at the line and column of the item.
    private mutating func seedFile(_ relative: String, _ node: Node?, _ definition: ResourceDefinition) -> [JSONValue]? {
        let data: Data
        let path: String
        switch reader.readReferenced(relative) {
        case .success(let read): (data, path) = (read.data, read.path)
        case .failure(let error):
            let why: String
            switch error {
            case .missing: why = "seed file '\(relative)' does not exist (looked in the root and __files/)"
            case .outsideRoot: why = "seed file '\(relative)' is outside the Stubs folder"
            case .unreadable: why = "seed file '\(relative)' cannot be read"
            case .notServed: why = "seed file '\(relative)' is a dot-file or the manifest"
            }
            add(node, why, hint: "put the items in __files/resources/\(definition.name).json, a JSON array of objects")
            return nil
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            problems.add(path, line: error.line, column: error.column, "not valid JSON: \(error.message)",
                         hint: "a seed file is a JSON array of the items every session starts with")
            return nil
        }
        guard case .array(let items) = value else {
            problems.add(path, line: 1, column: 1, "a seed file is a JSON array of items", hint: "[{\"\(definition.idField)\": 1, …}]")
            return nil
        }
        var seed: [JSONValue] = []
        var seen = Set<String>()
        var clean = true
        for (i, item) in items.enumerated() {
            if let why = seedProblem(item, i, definition, seen: &seen) {
                let at = JSONTextPosition.of("/\(i)", in: data)
                problems.add(path, line: at?.line, column: at?.column, why)
                clean = false
            } else {
                seed.append(item)
            }
        }
        return clean ? seed : nil
    }

    /// What is wrong with seed item `i`: not an object, no usable id, an id given twice.
    private func seedProblem(_ item: JSONValue, _ i: Int, _ definition: ResourceDefinition, seen: inout Set<String>) -> String? {
        guard case .object(let fields) = item else { return "item \(i) is not a JSON object" }
        let idValue = fields[definition.idField]
        switch idValue {
        case .string?, .number?: break
        default: return "item \(i) has no '\(definition.idField)' string or number, which \(definition.name) keys its items by"
        }
        let id = ResourceDefinition.text(idValue!)!
        if let why = ResourceDefinition.refusal(ofID: id) { return "item \(i): \(why)" }
        let parent = definition.parentKey(of: item)
        if !seen.insert(parent + "\u{1E}" + id).inserted { return "item \(i): \(definition.idField) '\(id)' is given twice" }
        return nil
    }
}
