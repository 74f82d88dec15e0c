import Foundation
public import StubdEngine

/// Compiles the schemas of one document (a JSON Schema, or a whole OpenAPI spec) into `SchemaNode`
/// graphs that validation walks without looking anything up.
///
/// Each location is compiled once and shared: every `$ref` to `#/components/schemas/Pet`, from any
/// root, reaches the same node, and a recursive schema becomes a cycle. Only what a requested root
/// reaches is compiled, so a large spec costs what its used schemas cost.
public final class SchemaCompiler {
    private let document: JSONValue
    private let dialect: SchemaDialect
    /// The number the document writes at a pointer (`#/components/schemas/Id/maximum`) when it is
    /// past 2^53; nil when there is none anywhere.
    private let literal: ((String) -> NumberLiteral?)?
    private let formats: SchemaFormatMode
    private var nodes: [String: SchemaNode] = [:]
    private var problems: [String] = []

    /// `formats`: whether string formats are checked (`assert`, this type's default for a bare
    /// JSON Schema) or only annotate (what `check`, `serve` and `import` default to; see SchemaFormatMode).
    public convenience init(document: JSONValue, dialect: SchemaDialect, formats: SchemaFormatMode = .assert) {
        self.init(document: document, dialect: dialect, literal: nil, formats: formats)
    }

    package init(document: JSONValue, dialect: SchemaDialect, literal: ((String) -> NumberLiteral?)?, formats: SchemaFormatMode = .assert) {
        self.document = document
        self.dialect = dialect
        self.literal = literal
        self.formats = formats
    }

    /// The integer written at `pointer` when the document wrote one past 2^53.
    private func exact(_ pointer: String) -> ExactInteger? {
        guard let literal, let written = literal(pointer), !written.hasFraction else { return nil }
        return written.integerPart
    }

    /// The schema at `pointer` in the document (`#` for the whole document, or `#/components/schemas/Weather`).
    public func schema(at pointer: String = "#") throws(SchemaError) -> JSONSchema {
        let before = problems.count
        guard let tokens = JSONPointer.tokens(ofFragment: pointer), let value = JSONPointer.resolve(tokens, in: document) else {
            throw SchemaError(problems: ["\(pointer): no schema at this location in the document"])
        }
        let node = compile(Self.location(tokens), value)
        if problems.count > before { throw SchemaError(problems: Array(problems[before...])) }
        return JSONSchema(root: node)
    }

    /// `value` compiled as a schema of the document at `location` (a schema the sampler put together,
    /// such as an array's `contains`); its `$ref`s reach the document's.
    package func schema(of value: JSONValue, at location: String) throws(SchemaError) -> JSONSchema {
        let before = problems.count
        let node = compile(location, value)
        if problems.count > before { throw SchemaError(problems: Array(problems[before...])) }
        return JSONSchema(root: node)
    }

    static func location(_ tokens: [String]) -> String {
        "#" + tokens.map { "/" + JSONPointer.escape($0) }.joined()
    }

    private func problem(_ location: String, _ keyword: String, _ message: String) {
        problems.append("\(location)/\(keyword): \(message)")
    }

    private func compile(_ location: String, _ value: JSONValue) -> SchemaNode {
        if let node = nodes[location] { return node }
        let node = SchemaNode(location: location)
        // Cached before its keywords, so a `$ref` back to this location finds it: the cycle closes here.
        nodes[location] = node
        switch value {
        case .bool(true): break
        case .bool(false): node.keywords = [.alwaysFalse]
        case .object(let members): node.keywords = keywords(members, at: location)
        default: problems.append("\(location): a schema must be an object or a boolean, not \(SchemaMessage.describe(value))")
        }
        return node
    }

    private func child(_ location: String, _ keyword: String, _ value: JSONValue) -> SchemaNode {
        compile(location + "/" + JSONPointer.escape(keyword), value)
    }

    private func children(_ location: String, _ keyword: String, _ value: JSONValue) -> [SchemaNode]? {
        guard case .array(let items) = value, !items.isEmpty else {
            problem(location, keyword, "expected a non-empty array of schemas")
            return nil
        }
        return items.enumerated().map { compile("\(location)/\(keyword)/\($0.offset)", $0.element) }
    }

    private func count(_ members: [String: JSONValue], _ keyword: String, at location: String) -> Int? {
        guard let value = members[keyword] else { return nil }
        guard case .number(let n) = value, n >= 0, n.rounded() == n, n < 1e15 else {
            problem(location, keyword, "expected a non-negative integer, got \(SchemaMessage.describe(value))")
            return nil
        }
        return Int(n)
    }

    private func number(_ members: [String: JSONValue], _ keyword: String, at location: String) -> Double? {
        guard let value = members[keyword] else { return nil }
        guard case .number(let n) = value else {
            problem(location, keyword, "expected a number, got \(SchemaMessage.describe(value))")
            return nil
        }
        return n
    }

    /// A `pattern` or `patternProperties` name compiled for the linear-time engine (see `SchemaPattern`).
    /// Each pattern source compiled once: a spec repeats one pattern at many locations (Twilio's
    /// `^AC[0-9a-fA-F]{32}$` in hundreds of schemas), and parsing it to a program is most of compiling
    /// a schema. `SchemaPattern(_:)` depends on nothing but the source, so a cached one is the same.
    private var patterns: [String: Result<SchemaPattern, PatternSyntaxError>] = [:]

    private func regex(_ source: String, _ location: String, _ keyword: String) -> SchemaPattern? {
        let compiled: Result<SchemaPattern, PatternSyntaxError>
        if let cached = patterns[source] {
            compiled = cached
        } else {
            do throws(PatternSyntaxError) { compiled = .success(try SchemaPattern(source)) } catch { compiled = .failure(error) }
            patterns[source] = compiled
        }
        do {
            return try compiled.get()
        } catch {
            problem(location, keyword, "the pattern \(source) is not a valid ECMA-262 regular expression: \(error.description)")
            return nil
        }
    }

    /// The node for a `$ref` (or a discriminator mapping) written in the schema at `location`.
    private func reference(_ ref: String, from location: String, keyword: String) -> SchemaNode? {
        guard let tokens = JSONPointer.tokens(ofFragment: ref) else {
            problem(location, keyword, "only references within this document (\"#/...\") are supported, not \(ref)")
            return nil
        }
        guard let target = JSONPointer.resolve(tokens, in: document) else {
            problem(location, keyword, "\(ref) points at nothing in this document")
            return nil
        }
        return compile(Self.location(tokens), target)
    }

    private func keywords(_ members: [String: JSONValue], at location: String) -> [SchemaKeyword] {
        var out: [SchemaKeyword] = []
        if let ref = members["$ref"] {
            if case .string(let target) = ref {
                if let node = reference(target, from: location, keyword: "$ref") { out.append(.ref(node, target: target)) }
            } else {
                problem(location, "$ref", "expected a string such as \"#/components/schemas/Pet\"")
            }
            // OpenAPI 3.0 (like JSON Schema before 2019-09): a `$ref` replaces whatever stands beside it.
            if dialect == .openAPI30 { return out }
        }

        let nullable = dialect == .openAPI30 && members["nullable"] == .bool(true)
        if let type = members["type"] {
            var names: [SchemaKeyword.TypeName] = []
            let written: [JSONValue]
            if case .array(let list) = type { written = list } else { written = [type] }
            for entry in written {
                if case .string(let s) = entry, let name = SchemaKeyword.TypeName(rawValue: s) {
                    names.append(name)
                } else {
                    let allowed = SchemaKeyword.TypeName.allCases.map(\.rawValue).joined(separator: ", ")
                    problem(location, "type", "\(SchemaMessage.describe(entry)) is not a type; expected one of \(allowed)")
                }
            }
            out.append(.type(names, nullable: nullable))
        }
        if let value = members["enum"] {
            if case .array(let list) = value {
                var exact: [Int: ExactInteger] = [:]
                if literal != nil { for i in list.indices { if let e = self.exact("\(location)/enum/\(i)") { exact[i] = e } } }
                out.append(.enumeration(list, exact: exact))
            } else { problem(location, "enum", "expected an array") }
        }
        if let value = members["const"] { out.append(.constant(value, exact: exact(location + "/const"))) }

        // Objects.
        var declared: Set<String> = []
        if let value = members["properties"] {
            if case .object(let props) = value {
                let base = location + "/properties"
                out.append(.properties(props.keys.sorted().map { (name: $0, schema: child(base, $0, props[$0]!)) }))
                declared = Set(props.keys)
            } else {
                problem(location, "properties", "expected an object of schemas")
            }
        }
        var patterns: [SchemaPattern] = []
        if let value = members["patternProperties"] {
            if case .object(let props) = value {
                let base = location + "/patternProperties"
                var compiled: [(pattern: SchemaPattern, schema: SchemaNode)] = []
                for source in props.keys.sorted() {
                    guard let re = regex(source, base, JSONPointer.escape(source)) else { continue }
                    compiled.append((re, child(base, source, props[source]!)))
                    patterns.append(re)
                }
                out.append(.patternProperties(compiled))
            } else {
                problem(location, "patternProperties", "expected an object of schemas")
            }
        }
        if let value = members["additionalProperties"] {
            out.append(.additionalProperties(child(location, "additionalProperties", value), declared: declared, patterns: patterns))
        }
        if let value = members["required"] {
            if case .array(let list) = value {
                let names = list.compactMap { item -> String? in if case .string(let s) = item { return s } else { return nil } }
                if names.count != list.count { problem(location, "required", "expected an array of property names") }
                out.append(.required(names))
            } else {
                problem(location, "required", "expected an array of property names")
            }
        }
        if let n = count(members, "minProperties", at: location) { out.append(.minProperties(n)) }
        if let n = count(members, "maxProperties", at: location) { out.append(.maxProperties(n)) }

        // Arrays.
        var prefixCount = 0
        if dialect == .jsonSchema2020, let value = members["prefixItems"], let nodes = children(location, "prefixItems", value) {
            out.append(.prefixItems(nodes))
            prefixCount = nodes.count
        }
        if let value = members["items"] {
            if case .array = value {
                problem(location, "items", "expected one schema for every item; a list of schemas per position is prefixItems")
            } else {
                out.append(.items(child(location, "items", value), from: prefixCount))
            }
        }
        if let n = count(members, "minItems", at: location) { out.append(.minItems(n)) }
        if let n = count(members, "maxItems", at: location) { out.append(.maxItems(n)) }
        if members["uniqueItems"] == .bool(true) { out.append(.uniqueItems) }
        if let value = members["contains"] {
            // minContains/maxContains mean nothing without contains (JSON Schema 2020-12, 10.3.1.1).
            let minimum = count(members, "minContains", at: location) ?? 1
            out.append(.contains(child(location, "contains", value), min: minimum, max: count(members, "maxContains", at: location)))
        }

        // Strings.
        if let n = count(members, "minLength", at: location) { out.append(.minLength(n)) }
        if let n = count(members, "maxLength", at: location) { out.append(.maxLength(n)) }
        if case .string(let source)? = members["pattern"], let re = regex(source, location, "pattern") {
            out.append(.pattern(re))
        }
        if case .string(let name)? = members["format"], let format = SchemaFormat(rawValue: name) {
            if formats.asserts(format) {
                out.append(.format(format))
            } else if format == .dateTime {
                // Not asserted, yet `check` still warns at a date-time a Swift client cannot decode.
                out.append(.formatAnnotation(format))
            }
        }

        // Numbers: 3.0 writes `exclusiveMinimum: true` beside `minimum`; 3.1 writes the bound itself.
        let minimum = number(members, "minimum", at: location)
        let maximum = number(members, "maximum", at: location)
        let exactMinimum = exact(location + "/minimum"), exactMaximum = exact(location + "/maximum")
        switch members["exclusiveMinimum"] {
        case .bool(let exclusive)?: if let m = minimum { out.append(.minimum(m, exclusive: exclusive, exact: exactMinimum)) }
        case .number(let bound)?:
            out.append(.minimum(bound, exclusive: true, exact: exact(location + "/exclusiveMinimum")))
            if let m = minimum { out.append(.minimum(m, exclusive: false, exact: exactMinimum)) }
        default: if let m = minimum { out.append(.minimum(m, exclusive: false, exact: exactMinimum)) }
        }
        switch members["exclusiveMaximum"] {
        case .bool(let exclusive)?: if let m = maximum { out.append(.maximum(m, exclusive: exclusive, exact: exactMaximum)) }
        case .number(let bound)?:
            out.append(.maximum(bound, exclusive: true, exact: exact(location + "/exclusiveMaximum")))
            if let m = maximum { out.append(.maximum(m, exclusive: false, exact: exactMaximum)) }
        default: if let m = maximum { out.append(.maximum(m, exclusive: false, exact: exactMaximum)) }
        }
        if let m = number(members, "multipleOf", at: location) {
            if m > 0 { out.append(.multipleOf(m, exact: exact(location + "/multipleOf"))) } else { problem(location, "multipleOf", "expected a number greater than 0") }
        }

        // Combinations.
        if let value = members["allOf"], let nodes = children(location, "allOf", value) { out.append(.allOf(nodes)) }
        let discriminator = members["discriminator"]
        if let value = members["anyOf"], let nodes = children(location, "anyOf", value) {
            out.append(.anyOf(nodes, discriminator: discriminator.flatMap { self.discriminator($0, value, at: location) }))
        }
        if let value = members["oneOf"], let nodes = children(location, "oneOf", value) {
            out.append(.oneOf(nodes, discriminator: discriminator.flatMap { self.discriminator($0, value, at: location) }))
        }
        if let value = members["not"] { out.append(.not(child(location, "not", value))) }
        return out
    }

    /// OpenAPI's discriminator: `mapping` first, then each `$ref`'d branch under its schema's name.
    private func discriminator(_ value: JSONValue, _ branches: JSONValue, at location: String) -> SchemaKeyword.Discriminator? {
        guard case .object(let members) = value, case .string(let propertyName)? = members["propertyName"] else {
            problem(location, "discriminator", "expected an object with a propertyName")
            return nil
        }
        var selected: [String: SchemaNode] = [:]
        var inline = 0
        if case .array(let list) = branches {
            for case .object(let branch) in list {
                guard case .string(let ref)? = branch["$ref"], let name = ref.split(separator: "/").last else { inline += 1; continue }
                if let node = reference(ref, from: location, keyword: "discriminator") { selected[String(name)] = node }
            }
        }
        if case .object(let mapping)? = members["mapping"] {
            for (key, target) in mapping {
                guard case .string(let ref) = target else {
                    problem(location, "discriminator/mapping/\(JSONPointer.escape(key))", "expected a schema name or a \"#/...\" reference")
                    continue
                }
                let full = ref.hasPrefix("#") ? ref : "#/components/schemas/" + ref
                if let node = reference(full, from: location, keyword: "discriminator/mapping/\(JSONPointer.escape(key))") {
                    selected[key] = node
                }
            }
        }
        // Inline branches and no mapping: nothing a value could name, so the discriminator only
        // annotates (before, every value was refused with "expected one of nothing").
        if selected.isEmpty { return nil }
        return SchemaKeyword.Discriminator(propertyName: propertyName, branches: selected, namesEveryBranch: inline == 0)
    }
}
