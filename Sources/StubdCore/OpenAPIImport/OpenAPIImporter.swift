package import Foundation
import HTTPTypes
import StubdEngine

/// A spec turned into a Stubs folder's files: `stubd.yml` with a route per answer, and each body
/// under `__files/`.
///
/// Per operation: a plain route answers with the first 2xx response (its first example by name,
/// or a body sampled from the schema); routes with a `Prefer` header condition answer the others,
/// as Prism reads that header: `Prefer: code=429`, `Prefer: example=NAME`, and both together,
/// `Prefer: code=429, example=NAME`. A header condition beats a route without one, so no new
/// manifest feature is needed.
///
/// Every body is checked against its schema with StubdCore's validator before it is written: an
/// example that breaks its own schema is left out with a warning (Prism serves those), and so is a
/// sampled body that fails, so nothing written contradicts the spec `check --spec` holds it to.
package struct OpenAPIImporter {
    package struct Output {
        /// Path relative to the Stubs folder → bytes, `stubd.yml` included.
        package var files: [String: Data] = [:]
        package var warnings: [String] = []
        package var routes = 0
        /// The manifest's routes alone (what follows `routes:`), for a folder that holds several specs.
        package var routesSection = ""
    }

    /// One answer an operation can give.
    private struct Answer {
        let status: Int
        let example: String?
        let file: String?
        let headers: HTTPFields
        /// The value its body was written from, to write it in another media type too.
        var value: JSONValue?
        var kind: BodyKind = .json
        /// The same answer in other media types (XML beside JSON), each `(type, file)`: served by `Accept`.
        var alternatives: [(type: String, file: String)] = []
    }

    /// How a body is written: JSON, XML rendered from a JSON value, or a string's text as it is.
    private enum BodyKind { case json, xml, text }

    let spec: OpenAPIDocument
    let specName: String
    /// `annotate`: an example whose only fault is a string `format` other than date-time and date is
    /// kept (and counted in one warning); `annotate-all`: a date's too; `assert`: it is left out, as
    /// `check --formats assert` would refuse it.
    let formats: SchemaFormatMode

    /// Operation folder names (`__files/NAME/`) another spec's import in the same folder uses.
    let reservedNames: Set<String>

    /// The schemas as the contract the import is checked against compiled them (`APIContract.compiler(for:formats:)`,
    /// after a load that succeeded): examples are held to the very nodes `check --spec` holds them to, and
    /// the spec is not compiled twice. Nil: the import compiles its own.
    let compiler: SchemaCompiler?

    package init(spec: OpenAPIDocument, specName: String, formats: SchemaFormatMode = .annotate, reservedNames: Set<String> = [],
                 compiler: SchemaCompiler? = nil) {
        self.spec = spec
        self.specName = specName
        self.formats = formats
        self.reservedNames = reservedNames
        self.compiler = compiler
    }

    /// The lines a written manifest opens with.
    package static func manifestHeader(_ specNames: [String]) -> String {
        "# Written by `stubd openapi import \(specNames.joined(separator: "` and `stubd openapi import "))`. Re-import rewrites this file unless you edit it;\n"
            + "# an edited file makes re-import stop (see docs/contract.md, Import an OpenAPI spec).\n"
            + "# Pick an answer per request as Prism does: Prefer: code=429, Prefer: example=NAME, or both.\n"
    }

    /// Examples kept though a string `format` of theirs does not hold: said once, in a summary.
    private struct FormatMisses {
        var count = 0
        var byFormat: [String: Int] = [:]
        var first: String?
    }

    private static let methods = ["get", "put", "post", "delete", "options", "head", "patch"]

    package func run() -> Output {
        var out = Output()
        let header = Self.manifestHeader([specName]) + "routes:\n"
        var manifest = ""
        let compiler = self.compiler ?? APIContract.compiler(for: spec.spec, formats: formats)
        // In the annotate modes, the same schemas as `--formats assert` reads them, to count what it would refuse.
        let asserting = formats != .assert ? APIContract.compiler(for: spec.spec, formats: .assert) : nil
        var misses = FormatMisses()
        guard case .object(let root) = spec.root, case .object(let paths)? = root["paths"] else {
            return out
        }
        var usedNames = reservedNames
        for template in paths.keys.sorted() {
            // A path item in a file of its own (`$ref: paths/things.yaml`) is read where it is written.
            let (resolvedItem, itemPointer) = spec.resolve(paths[template]!, at: "#/paths/" + JSONPointer.escape(template))
            guard case .object(let item) = resolvedItem else { continue }
            do { _ = try PathPattern(parsing: template) } catch {
                out.warnings.append("\(specName): path '\(template)' left out: stubd cannot match it (\(error.description))")
                continue
            }
            for method in Self.methods {
                guard let rawOp = item[method] else { continue }
                let (resolvedOp, opPointer) = spec.resolve(rawOp, at: itemPointer + "/" + method)
                guard case .object(let op) = resolvedOp else { continue }
                if method == "head" && item["get"] != nil { continue }   // stubd answers HEAD wherever GET is
                let label = "\(method.uppercased()) \(template)"
                var base: String
                if case .string(let id)? = op["operationId"] { base = Self.fileName(id) } else { base = Self.fileName(method + template) }
                while usedNames.contains(base) { base += "_" }
                usedNames.insert(base)
                var answers: [Answer] = []
                guard case .object(let responses)? = op["responses"] else { continue }
                let numeric = responses.keys.filter { Self.status($0) != nil }
                for key in responses.keys.sorted(by: { (Self.status($0) ?? 999, $0) < (Self.status($1) ?? 999, $1) }) {
                    var status = Self.status(key)
                    // `default` stands for any status the others do not name: served as 500, or 200 when alone.
                    if key == "default" { status = numeric.isEmpty ? 200 : 500 }
                    guard let status, !answers.contains(where: { $0.status == status }) else { continue }
                    let (response, pointer) = spec.resolve(responses[key]!, at: opPointer + "/responses/" + JSONPointer.escape(key))
                    guard case .object(let r) = response else { continue }
                    answers += self.answers(status: status, response: r, at: pointer, label: label, base: base,
                                            compiler: compiler, asserting: asserting, misses: &misses, into: &out)
                }
                guard let first = answers.first(where: { (200..<300).contains($0.status) }) ?? answers.first else {
                    out.warnings.append("\(label): no response stubd can write; left out")
                    continue
                }
                // The plain route, then one per status, per example name, and per both.
                var routes: [(name: String, prefer: String?, answer: Answer)] = [(base, nil, first)]
                var seen: Set<String> = []
                func add(_ prefer: String, _ answer: Answer) {
                    guard seen.insert(prefer).inserted else { return }
                    routes.append((base + " " + prefer, prefer, answer))
                }
                for answer in answers { add("code=\(answer.status)", answer) }
                for answer in answers { if let e = answer.example { add("example=\(e)", answer) } }
                for answer in answers { if let e = answer.example { add("code=\(answer.status), example=\(e)", answer) } }
                for route in routes {
                    manifest += route.name == base ? "\n" : ""
                    manifest += "  - name: \(Self.quoted(route.name))\n"
                    manifest += "    request: { method: \(method.uppercased()), path: \(Self.quoted(template))"
                    if let prefer = route.prefer { manifest += ", headers: { Prefer: \(Self.quoted(prefer)) }" }
                    manifest += " }\n"
                    manifest += "    response: { status: \(route.answer.status)"
                    var headers = route.answer.headers
                    // Several media types: each body's type is its `content:` key, not a header.
                    let primaryType = route.answer.alternatives.isEmpty ? nil : headers[.contentType]
                    if primaryType != nil { headers[.contentType] = nil }
                    if !headers.isEmpty {
                        manifest += ", headers: { " + headers.map { "\(Self.quoted($0.name.rawName)): \(Self.quoted($0.value))" }.joined(separator: ", ") + " }"
                    }
                    if let file = route.answer.file, let primaryType {
                        let bodies = [(primaryType, file)] + route.answer.alternatives.map { ($0.type, $0.file) }
                        manifest += ", content: { " + bodies.map { "\(Self.quoted($0.0)): { file: \(Self.quoted($0.1)) }" }.joined(separator: ", ") + " }"
                    } else if let file = route.answer.file {
                        manifest += ", file: \(Self.quoted(file))"
                    }
                    manifest += " }\n"
                    out.routes += 1
                }
            }
        }
        if misses.count > 0 {
            let formats = misses.byFormat.keys.sorted().map { "\($0) ×\(misses.byFormat[$0]!)" }.joined(separator: ", ")
            out.warnings.append("\(misses.count) example\(misses.count == 1 ? "" : "s") kept though a value breaks its `format` (\(formats)), "
                                + "e.g. \(misses.first ?? ""); `format` only describes unless --formats assert, which leaves them out")
        }
        // No route: nothing is written (an empty manifest would be a folder that serves nothing).
        out.routesSection = manifest
        if out.routes > 0 { out.files["stubd.yml"] = Data((header + manifest).utf8) }
        return out
    }

    /// A response's answers: one per example that keeps to the schema, or one sampled body.
    private func answers(status: Int, response r: [String: JSONValue], at pointer: String, label: String, base: String,
                         compiler: SchemaCompiler, asserting: SchemaCompiler?, misses: inout FormatMisses,
                         into out: inout Output) -> [Answer] {
        let seedBase = "\(label) \(status)"
        var headers = HTTPFields()
        if case .object(let declared)? = r["headers"] {
            for name in declared.keys.sorted() where name.lowercased() != "content-type" {
                let (h, hPointer) = spec.resolve(declared[name]!, at: pointer + "/headers/" + JSONPointer.escape(name))
                guard case .object(let header) = h else { continue }
                var random = SeededRandom(seed: seedBase + " header " + name)
                var value: JSONValue? = header["example"]
                if value == nil, case .object(let examples)? = header["examples"], let k = examples.keys.sorted().first {
                    value = example(examples[k]!)
                }
                if value == nil, let schema = header["schema"] {
                    do { value = try SchemaSampler(document: spec.root, dialect: spec.dialect).sample(schema, at: hPointer + "/schema", random: &random) } catch {
                        out.warnings.append("\(label) \(status): header \(name) left out: \(error)")
                        continue
                    }
                }
                guard let fieldName = HTTPField.Name(name) else {
                    out.warnings.append("\(label) \(status): header '\(name)' is not a header name; left out (\(hPointer))")
                    continue
                }
                guard let value, let text = Self.headerText(value) else {
                    out.warnings.append("\(label) \(status): header \(name) has no example or simple schema; left out (\(hPointer))")
                    continue
                }
                headers.append(HTTPField(name: fieldName, value: text))
            }
        }
        guard case .object(let content)? = r["content"], !content.isEmpty else {
            return [Answer(status: status, example: nil, file: nil, headers: headers)]
        }
        let type = content.keys.sorted().first { $0.lowercased().hasPrefix("application/json") }
            ?? content.keys.sorted().first { $0.lowercased().contains("json") }
            ?? content.keys.sorted().first!
        let mediaPointer = pointer + "/content/" + JSONPointer.escape(type)
        guard case .object(let media)? = content[type] else { return [] }
        // An XML type whose schema is an object or an array: bodies are XML written from JSON values,
        // and checked by reading them back, as `check --spec` reads them.
        let xmlGuide = media["schema"].map { XMLSchemaGuide(schema: $0, in: spec.root) }
        let readsXML = ContentType.isXML(mediaType: type) && xmlGuide?.isStructured == true
        // What a body is served as: the declared type, or for a wildcard (`*/*`, `application/*`) a
        // type a client can read, JSON for a structured value, never `Content-Type: */*` (issue 58).
        func served(_ value: JSONValue) -> (contentType: HTTPFields, kind: BodyKind) {
            let declared = type.lowercased().prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            guard declared.contains("*") else {
                if case .string = value { return ([.contentType: type], declared.contains("json") ? .json : .text) }
                // An object or array under an XML type is written as XML, with the schema's hints when it has one
                // (a Swagger 2.0 `examples: {application/xml: {id: 1}}` has none).
                let xml = readsXML || (ContentType.isXML(mediaType: type) && media["schema"] == nil)
                return ([.contentType: type], declared.contains("json") ? .json : xml ? .xml : .text)
            }
            if case .string = value, declared == "*/*" || declared == "text/*" { return ([.contentType: ContentType.text], .text) }
            if declared == "*/*" || declared == "application/*" { return ([.contentType: ContentType.json], .json) }
            return ([.contentType: type], .text)
        }
        // A string example of an XML type is kept as written, and read as XML all the same.
        func checkedAs(_ kind: BodyKind) -> BodyKind { readsXML ? .xml : kind }
        var schema: JSONSchema?
        var assertingSchema: JSONSchema?
        if media["schema"] != nil {
            do { schema = try compiler.schema(at: mediaPointer + "/schema") } catch {
                out.warnings.append("\(label) \(status): the schema cannot be read, so bodies are not checked: \(error.description)")
            }
            if schema != nil { assertingSchema = try? asserting?.schema(at: mediaPointer + "/schema") }
        }
        var candidates: [(name: String?, value: JSONValue)] = []
        if case .object(let examples)? = media["examples"] {
            for name in examples.keys.sorted() {
                if let v = example(examples[name]!) { candidates.append((name, v)) }
                else { out.warnings.append("\(label) \(status): example '\(name)' has no value (externalValue is not read); left out") }
            }
        } else if let v = media["example"] {
            candidates.append((nil, v))
        }
        if candidates.isEmpty, media["schema"] == nil {
            // Neither schema nor example (`text/plain: {}`, WolframAlpha's): any body keeps to it, so the
            // smallest one of its type, served with the type declared (without one, check refused the import).
            candidates.append((nil, served(.object([:])).kind == .json ? .object([:]) : .string("")))
        }
        var out2: [Answer] = []
        for candidate in candidates {
            let (contentType, kind) = served(candidate.value)
            guard let bytes = body(candidate.value, kind: kind, guide: xmlGuide) else {
                out.warnings.append("\(label) \(status): example \(candidate.name.map { "'\($0)' " } ?? "")for \(type) is not text; left out")
                continue
            }
            if let schema, case let violations = Self.violations(of: bytes, kind: checkedAs(kind), against: schema, guide: xmlGuide), !violations.isEmpty {
                out.warnings.append("\(label) \(status): example \(candidate.name.map { "'\($0)' " } ?? "")breaks the spec's own schema, left out: "
                                    + listed(violations))
                continue
            }
            if let assertingSchema, case let violations = Self.violations(of: bytes, kind: checkedAs(kind), against: assertingSchema, guide: xmlGuide),
               !violations.isEmpty {
                misses.count += 1
                for v in violations where v.keyword == "format" { misses.byFormat[formatName(v.schemaPath), default: 0] += 1 }
                if misses.first == nil {
                    misses.first = "\(label) \(status) example \(candidate.name.map { "'\($0)'" } ?? ""): \(violations[0].description)"
                }
            }
            let file = "__files/\(base)/\(status)" + (candidate.name.map { "." + Self.fileName($0) } ?? "") + Self.fileExtension(kind)
            out.files[file] = bytes
            out2.append(Answer(status: status, example: candidate.name, file: file, headers: headers + contentType, value: candidate.value, kind: kind))
        }
        // The same answers in XML, where the response declares it beside JSON.
        func withXML(_ answers: [Answer]) -> [Answer] {
            guard let xmlType = content.keys.sorted().first(where: { key in
                guard ContentType.isXML(mediaType: key), case .object(let m)? = content[key], let s = m["schema"] else { return false }
                return XMLSchemaGuide(schema: s, in: spec.root).isStructured
            }), xmlType != type else { return answers }
            return answers.map { xmlAlternative(to: $0, type: xmlType, content: content, at: pointer, label: label, base: base,
                                                compiler: compiler, into: &out) }
        }
        if !out2.isEmpty { return withXML(out2) }
        guard let raw = media["schema"] else {
            // Every example left out (said above) and no schema to sample: an empty body, still of the type
            // declared, which is what check holds the answer to (without it, check refused the import).
            return [Answer(status: status, example: nil, file: nil, headers: headers + served(.string("")).contentType)]
        }
        // No usable example: a body sampled from the schema, first with the schema's own examples,
        // then without, each with a few seeds (a `oneOf` or `uniqueItems` may need another draw).
        var sampled: (bytes: Data, violations: [SchemaViolation], contentType: HTTPFields, kind: BodyKind, value: JSONValue)?
        var satisfiable = false
        search: for useExamples in [true, false] {
            for attempt in 0..<Self.sampleAttempts {
                var random = SeededRandom(seed: seedBase + " " + type + (attempt == 0 ? "" : " \(attempt)"))
                var sampler = SchemaSampler(document: spec.root, dialect: spec.dialect)
                sampler.useSchemaExamples = useExamples
                let drawn: JSONValue?
                do { drawn = try sampler.sample(raw, at: mediaPointer + "/schema", random: &random) } catch {
                    // Another draw asks as much: the bound is the schema's, not the seed's.
                    out.warnings.append("\(label) \(status): left out: \(error)")
                    return []
                }
                guard let v = drawn else { continue }
                satisfiable = true
                let (contentType, kind) = served(v)
                guard let bytes = body(v, kind: kind, guide: xmlGuide) else { continue }
                // Checked as written, with the validator `check --spec` uses: what is checked is what is served.
                let violations = schema.map { Self.violations(of: bytes, kind: checkedAs(kind), against: $0, guide: xmlGuide) } ?? []
                if sampled == nil || violations.count < sampled!.violations.count { sampled = (bytes, violations, contentType, kind, v) }
                if violations.isEmpty { break search }
            }
        }
        guard let sampled else {
            out.warnings.append(satisfiable
                ? "\(label) \(status): \(type) with a non-string schema cannot be sampled; left out"
                : "\(label) \(status): no finite body satisfies the schema (a required member that refers back to itself?); left out")
            return []
        }
        // A body stubd knows breaks the schema is not written: `check --spec` would refuse the folder.
        guard sampled.violations.isEmpty else {
            out.warnings.append("\(label) \(status): no sampled body satisfies the schema, so this answer is left out (write an example in the spec): "
                                + listed(sampled.violations))
            return []
        }
        let file = "__files/\(base)/\(status)" + Self.fileExtension(sampled.kind)
        out.files[file] = sampled.bytes
        return withXML([Answer(status: status, example: nil, file: file, headers: headers + sampled.contentType, value: sampled.value, kind: sampled.kind)])
    }

    /// `answer` with its body in the XML type `type` too, when it is JSON: the XML media's own example
    /// of that name (or its one `example`), else the JSON value, written as XML by the XML media's
    /// schema and checked by reading it back. One that breaks the schema is left out with a warning,
    /// and the JSON is served alone.
    private func xmlAlternative(to answer: Answer, type: String, content: [String: JSONValue], at pointer: String, label: String,
                                base: String, compiler: SchemaCompiler, into out: inout Output) -> Answer {
        guard answer.kind == .json, let value = answer.value, case .object(let media)? = content[type], let raw = media["schema"]
        else { return answer }
        let mediaPointer = pointer + "/content/" + JSONPointer.escape(type)
        let guide = XMLSchemaGuide(schema: raw, in: spec.root)
        var source = value
        if let name = answer.example, case .object(let examples)? = media["examples"], let named = examples[name], let v = example(named) {
            source = v
        } else if let v = media["example"] {
            source = v
        }
        let bytes: Data
        if case .string(let text) = source { bytes = Data(text.utf8) } else { bytes = Data(XMLRenderer.document(source, guide: guide).utf8) }
        let shown = "\(label) \(answer.status): the \(type) body" + (answer.example.map { " of example '\($0)'" } ?? "")
        do {
            let schema = try compiler.schema(at: mediaPointer + "/schema")
            let violations = Self.violations(of: bytes, kind: .xml, against: schema, guide: guide)
            guard violations.isEmpty else {
                out.warnings.append("\(shown) breaks the spec's own schema, left out (JSON is served): " + listed(violations))
                return answer
            }
        } catch {
            out.warnings.append("\(shown) is left out: its schema cannot be read: \(error.description)")
            return answer
        }
        let file = "__files/\(base)/\(answer.status)" + (answer.example.map { "." + Self.fileName($0) } ?? "") + ".xml"
        out.files[file] = bytes
        var both = answer
        both.alternatives.append((type, file))
        return both
    }

    private static func fileExtension(_ kind: BodyKind) -> String {
        switch kind {
        case .json: ".json"
        case .xml: ".xml"
        case .text: ".txt"
        }
    }

    /// `uri` for a violation at `#/…/properties/next/format`: the format's name, read from the spec.
    private func formatName(_ schemaPath: String) -> String {
        guard let tokens = JSONPointer.tokens(ofFragment: schemaPath), case .string(let name)? = JSONPointer.resolve(tokens, in: spec.root)
        else { return "format" }
        return name
    }

    /// Draws of the sampler per schema before a body that breaks it is given up on.
    static let sampleAttempts = 4

    /// What `check --spec` would say of these bytes: JSON is parsed back as written, XML read back by
    /// its schema's `xml` names, text is a string.
    private static func violations(of bytes: Data, kind: BodyKind, against schema: JSONSchema, guide: XMLSchemaGuide?) -> [SchemaViolation] {
        if kind == .xml {
            do { return schema.validate(try XMLBodyDecoder.value(of: bytes, guide: guide)) } catch {
                return [SchemaViolation(instancePath: "", schemaPath: "", keyword: "xml", message: "not XML stubd reads: \(error.description)")]
            }
        }
        guard kind == .json else {
            // Text held to a schema for strings (an enum, a pattern); a schema of an object describes
            // what the text spells in its own format (XML, CSV), which `check --spec` does not read
            // either: held to it as a string, every XML example of an object was refused (issue 58).
            let violations = schema.validate(.string(String(decoding: bytes, as: UTF8.self)))
            return violations.contains { $0.keyword == "type" && $0.instancePath.isEmpty } ? [] : violations
        }
        guard let (value, literals) = try? JSONParser.parseKeepingLiterals(bytes) else { return [] }
        return schema.validate(value, literals: literals)
    }

    /// The first three violations, each naming the rule where the user wrote it (`shared/meta.yml#/required`),
    /// not where the bundle keeps it.
    private func listed(_ violations: [SchemaViolation]) -> String {
        violations.prefix(3).map { "\($0.instancePath.isEmpty ? "(root)" : $0.instancePath): \($0.message) [\(spec.location(of: $0.schemaPath))]" }
            .joined(separator: "; ")
            + (violations.count > 3 ? "; and \(violations.count - 3) more" : "")
    }

    /// An Example Object's value (following a `$ref` to components/examples), or a bare value.
    private func example(_ raw: JSONValue) -> JSONValue? {
        guard case .object(let e) = spec.resolve(raw, at: "").value else { return nil }
        return e["value"]
    }

    private func body(_ value: JSONValue, kind: BodyKind, guide: XMLSchemaGuide?) -> Data? {
        if kind == .json { return Data((value.serialized + "\n").utf8) }
        if kind == .xml { return Data(XMLRenderer.document(value, guide: guide).utf8) }
        if case .string(let text) = value { return Data(text.utf8) }
        return nil
    }

    private static func headerText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s
        case .number, .bool: return value.serialized
        case .array(let items):
            let parts = items.compactMap(headerText)
            return parts.count == items.count ? parts.joined(separator: ",") : nil
        default: return nil
        }
    }

    /// `200` → 200; `4XX` → 400; anything else nil.
    private static func status(_ key: String) -> Int? {
        if let n = Int(key), (100...599).contains(n) { return n }
        if key.count == 3, let d = key.first?.wholeNumberValue, (1...5).contains(d), key.dropFirst().uppercased() == "XX" { return d * 100 }
        return nil
    }

    /// A name safe as a file or folder name: letters, digits, `-`, `_`, `.` (not leading).
    static func fileName(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            let ok = ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "-" || c == "_" || c == "."
            out.unicodeScalars.append(ok ? c : "_")
        }
        while out.hasPrefix(".") || out.hasPrefix("_") { out.removeFirst() }
        return out.isEmpty ? "operation" : String(out.prefix(100))
    }

    /// A YAML double-quoted scalar: JSON's string syntax is valid YAML.
    static func quoted(_ text: String) -> String {
        var out = ""
        JSONValue.writeString(text, to: &out)
        return out
    }
}
