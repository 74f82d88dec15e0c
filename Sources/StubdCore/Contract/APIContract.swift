package import Foundation
package import HTTPTypes
import StubdProtocol
package import StubdEngine

/// An OpenAPI 3.0, 3.1 or 3.2 spec, read once: (method, path template) → operation → responses by
/// status and content type → compiled schema. Built at load; immutable and shared by every worker.
///
/// OpenAPIKit decides whether the files are an OpenAPI document (`OpenAPIStructure`); the table is
/// built from the same JSON, so every schema's location is the exact file and pointer the user wrote,
/// and a `$ref` across files or in a circle is followed by the schema compiler like any other.
package final class APIContract: Sendable {
    /// The spec's file name, as given.
    package let specName: String
    /// The document's `openapi` field: `3.0.3`, `3.1.0`.
    package let version: String
    /// Most specific path first, so the first operation a request matches is the one it means.
    package let operations: [ContractOperation]
    /// What the spec leaves out that stubd read leniently, each at its file and line (say them once, at load).
    package let warnings: [LoadProblem]
    /// The paths its `servers` put before the operations' paths (`/v1`): a request or a stub route
    /// under one is for the operation its path names without it.
    package let serverPrefixes: [ServerPathPrefix]

    /// The document read, for naming a schema's place in the user's files.
    private let bundle: SpecBundle
    /// How the spec's schemas read, and the spec as one JSON document (`bundle.document`): what stubd
    /// samples its own answers from when the spec declares their status with a schema and no example
    /// (`APIContract+OwnAnswers`).
    let dialect: SchemaDialect
    var document: JSONValue { bundle.document }
    /// Sampled bodies by schema pointer: sampled once, on the first answer that needs one.
    let samples = Locked<[String: JSONValue?]>([:])
    /// `operations` by method and number of path segments, in their order: a route can only be for an
    /// operation with as many segments (`covers`), and `operation(for:)` runs for every stub route at
    /// load (902 on Twilio's spec, each against hundreds of GETs before).
    private let byShape: [Shape: [ContractOperation]]

    private struct Shape: Hashable {
        let method: HTTPRequest.Method
        let segments: Int
    }

    private init(specName: String, version: String, operations: [ContractOperation], warnings: [LoadProblem], bundle: SpecBundle,
                 dialect: SchemaDialect) {
        self.bundle = bundle
        self.specName = specName
        self.version = version
        self.operations = operations
        self.warnings = warnings
        self.dialect = dialect
        self.serverPrefixes = ServerPathPrefix.all(in: bundle.document)
        self.byShape = Dictionary(grouping: operations) { Shape(method: $0.method, segments: $0.path.segments.count) }
    }

    /// Reads a spec and what its `$ref`s reach, or throws every problem found. `formats`: whether
    /// string formats are checked (`--formats assert`) or only annotate (the default).
    package static func load(spec: URL, formats: SchemaFormatMode = .annotate) throws(SpecLoadError) -> APIContract {
        try load(spec: OpenAPISpec.load(spec: spec), formats: formats)
    }

    /// As `load(spec:)`, from a spec already read (`openapi import` reads the spec once and checks
    /// its own output against it).
    package static func load(spec: OpenAPISpec, formats: SchemaFormatMode = .annotate) throws(SpecLoadError) -> APIContract {
        try load(spec: spec, compiler: compiler(for: spec, formats: formats))
    }

    /// The compiler `load(spec:formats:)` compiles the spec's schemas with: one for the whole spec,
    /// so a schema used by many operations is compiled once.
    package static func compiler(for spec: OpenAPISpec, formats: SchemaFormatMode = .annotate) -> SchemaCompiler {
        SchemaCompiler(document: spec.bundle.document, dialect: spec.dialect, literal: spec.bundle.literalLookup, formats: formats)
    }

    /// As `load(spec:formats:)`, compiling with `compiler` (from `compiler(for:formats:)`), which
    /// keeps what it compiled: `openapi import` then samples and checks its examples against the
    /// very nodes the contract holds instead of compiling the spec a second time. A schema compiled
    /// with problems is cached too and not reported again, so after a load that threw, compile anew.
    package static func load(spec: OpenAPISpec, compiler: SchemaCompiler) throws(SpecLoadError) -> APIContract {
        var builder = Builder(spec: spec, compiler: compiler)
        let operations = builder.operations()
        guard builder.problems.isEmpty else { throw SpecLoadError(problems: builder.problems) }
        let sorted = operations.enumerated().sorted { a, b in
            a.element.path.isMoreSpecific(than: b.element.path) ?? (a.offset < b.offset)
        }.map(\.element)
        return APIContract(specName: spec.bundle.rootName, version: spec.version, operations: sorted, warnings: spec.warnings + builder.warnings,
                           bundle: spec.bundle, dialect: spec.dialect)
    }

    /// `schemas.yaml#/Weather/properties/temp` for a compiled schema's location (`SchemaViolation.schemaPath`).
    package func location(of schemaPath: String) -> String {
        bundle.location(of: schemaPath)
    }

    /// The operation a request with this method and path is for, with the path parameters it captures.
    /// A path under a server's prefix (`/v1/pets/7` with `servers: [{url: …/v1}]`) is also tried without it.
    package func operation(method: HTTPRequest.Method, path: [Substring]) -> (operation: ContractOperation, parameters: [String: String])? {
        let method = method == .head && !operations.contains(where: { $0.method == .head }) ? .get : method
        for operation in operations where operation.method == method {
            if let parameters = operation.path.match(path) { return (operation, parameters) }
        }
        for prefix in serverPrefixes {
            guard let rest = prefix.strip(path) else { continue }
            for operation in operations where operation.method == method {
                if let parameters = operation.path.match(rest) { return (operation, parameters) }
            }
        }
        return nil
    }

    /// As `operation(method:path:)`, for a request path as sent (`/weather/Paris`, no query).
    package func operation(method: HTTPRequest.Method, requestPath: String) -> (operation: ContractOperation, parameters: [String: String])? {
        operation(method: method, path: PathPattern.split(requestPath))
    }

    /// The operation a stub route answers for: same method (an ANY route stands for GET) and a path
    /// template that takes every request the route takes. The most literal match wins.
    package func operation(for route: Route) -> ContractOperation? {
        let method: HTTPRequest.Method
        switch route.method {
        case .only(let m): method = m
        case .any: method = .get
        }
        if let found = operation(method: method, segments: route.pattern.segments, optionalExtension: route.pattern.optionalExtension) {
            return found
        }
        // A route written under a server's prefix (`/v1/pets/{id}.json`) is for the operation without it.
        for prefix in serverPrefixes {
            let segments = route.pattern.segments
            guard segments.count > prefix.segments.count,
                  zip(segments, prefix.segments).allSatisfy({ $0.0 == .literal($0.1) }) else { continue }
            if let found = operation(method: method, segments: Array(segments.dropFirst(prefix.segments.count)),
                                     optionalExtension: route.pattern.optionalExtension) {
                return found
            }
        }
        return nil
    }

    private func operation(method: HTTPRequest.Method, segments: [PatternSegment], optionalExtension: String?) -> ContractOperation? {
        // A file stub answers `/weather/London` and `/weather/London.json`; a spec usually writes the
        // latter (`/weather/{city}.json`), so either spelling may be the operation's.
        var spellings = [segments]
        if let ext = optionalExtension, let last = segments.last {
            var withExtension = segments
            switch last {
            case .literal(let text): withExtension[withExtension.count - 1] = .literal(text + ext)
            case .parameter(let name, let prefix, let suffix): withExtension[withExtension.count - 1] = .parameter(name: name, prefix: prefix, suffix: suffix + ext)
            case .compound(let compound):
                withExtension[withExtension.count - 1] = .compound(CompoundSegment(names: compound.names, texts: compound.texts.dropLast() + [compound.texts.last! + ext]))
            case .wildcard: break
            }
            spellings.append(withExtension)
        }
        var best: (operation: ContractOperation, score: Int)?
        for operation in byShape[Shape(method: method, segments: segments.count)] ?? [] {
            guard let score = spellings.compactMap({ Self.covers(operation.path.segments, $0) }).max() else { continue }
            if best == nil || score > best!.score { best = (operation, score) }
        }
        return best?.operation
    }

    /// How literally the spec's segments cover a stub's: nil when some request the stub takes is not the operation's.
    private static func covers(_ spec: [PatternSegment], _ stub: [PatternSegment]) -> Int? {
        guard spec.count == stub.count else { return nil }
        var score = 0
        for (s, t) in zip(spec, stub) {
            switch (s, t) {
            case (.literal(let a), .literal(let b)):
                guard a == b else { return nil }
                score += 2
            case (.parameter, .literal(let b)), (.compound, .literal(let b)):
                guard s.accepts(Substring(b)) else { return nil }
                score += 1
            case (.parameter(_, let p1, let s1), .parameter(_, let p2, let s2)):
                // `{id}` takes whatever `{id}.json` takes; `{id}.json` does not take all of `{id}`.
                guard p2.hasPrefix(p1), s2.hasSuffix(s1) else { return nil }
                score += 1
            case (.parameter(_, let p1, let s1), .compound(let t)):
                // `{file}` takes whatever `{name}.{ext}` takes, as long as its own fixed text is the stub's.
                guard t.texts.first!.hasPrefix(p1), t.texts.last!.hasSuffix(s1) else { return nil }
                score += 1
            case (.compound(let a), .compound(let b)):
                // Only the same text around as many parameters is sure to take all the stub takes.
                guard a.shape == b.shape else { return nil }
                score += 1
            default:
                return nil
            }
        }
        return score
    }

    /// Walks the bundled document: paths → operations, following `$ref`s to path items, parameters,
    /// bodies and responses, and compiling each schema once.
    private struct Builder {
        let spec: OpenAPISpec
        /// One compiler for the whole spec: a schema used by many operations is compiled once.
        let compiler: SchemaCompiler
        var problems: [LoadProblem] = []
        /// What was left out, said and used without: a path stubd cannot match.
        var warnings: [LoadProblem] = []
        var bundle: SpecBundle { spec.bundle }

        init(spec: OpenAPISpec, compiler: SchemaCompiler) {
            self.spec = spec
            self.compiler = compiler
        }

        mutating func operations() -> [ContractOperation] {
            guard case .object(let root) = bundle.document else { return [] }
            var out: [ContractOperation] = []
            guard case .object(let paths)? = root["paths"] else { return [] }
            let schemes = securitySchemes(root)
            let rootSecurity = security(root["security"], schemes)
            for template in paths.keys.sorted() {
                // A path item may live in a file of its own (`$ref: paths/things.yaml`): everything
                // under it is read, and named, where it is written.
                let (resolvedItem, itemPointer) = resolve(paths[template]!, at: "#/paths/" + JSONPointer.escape(template))
                guard case .object(let item) = resolvedItem else { continue }
                let pattern: PathPattern
                do { pattern = try PathPattern(parsing: template) } catch {
                    // One path stubd cannot match (`{a}{b}`) leaves out its operations, not the spec:
                    // requests for it are judged as a path the spec does not have. `--strict-spec` refuses it.
                    warnings.append(bundle.problem(at: "#/paths/" + JSONPointer.escape(template),
                                                   "the path '\(template)' is left out: stubd cannot match it (\(error.description))"))
                    continue
                }
                let shared = parameters(item["parameters"], at: itemPointer + "/parameters", compiler)
                for method in ContractOperation.methodNames {
                    guard let raw = item[method] else { continue }
                    let (resolvedOp, opPointer) = resolve(raw, at: itemPointer + "/" + method)
                    guard case .object(let op) = resolvedOp else { continue }
                    var params = shared
                    for own in parameters(op["parameters"], at: opPointer + "/parameters", compiler) {
                        params.removeAll { $0.name == own.name && $0.place == own.place }
                        params.append(own)
                    }
                    var body: (required: Bool, media: [ContractMedia])?
                    if let rawBody = op["requestBody"] {
                        let (value, pointer) = resolve(rawBody, at: opPointer + "/requestBody")
                        if case .object(let b) = value {
                            body = (b["required"] == .bool(true), media(b["content"], at: pointer + "/content", compiler))
                        }
                    }
                    var responses: [ContractResponse] = []
                    if case .object(let rs)? = op["responses"] {
                        for status in rs.keys.sorted() {
                            let (value, pointer) = resolve(rs[status]!, at: opPointer + "/responses/" + JSONPointer.escape(status))
                            guard case .object(let r) = value else { continue }
                            var required: [String] = []
                            if case .object(let headers)? = r["headers"] {
                                for name in headers.keys.sorted() {
                                    let (h, _) = resolve(headers[name]!, at: pointer + "/headers/" + JSONPointer.escape(name))
                                    if case .object(let header) = h, header["required"] == .bool(true) { required.append(name) }
                                }
                            }
                            responses.append(ContractResponse(status: status, media: media(r["content"], at: pointer + "/content", compiler),
                                                              requiredHeaders: required, location: shown(opPointer + "/responses/" + JSONPointer.escape(status))))
                        }
                    }
                    // The importer's list of OpenAPI's method names: each is a token.
                    out.append(ContractOperation(method: HTTPRequest.Method(method.uppercased())!, path: pattern, parameters: params, requestBody: body,
                                                 responses: responses, security: op["security"] == nil ? rootSecurity : security(op["security"], schemes),
                                                 location: shown(opPointer)))
                }
            }
            return out
        }

        /// `components/securitySchemes`, by name.
        private mutating func securitySchemes(_ root: [String: JSONValue]) -> [String: ContractSecurityScheme] {
            guard case .object(let components)? = root["components"], case .object(let schemes)? = components["securitySchemes"] else { return [:] }
            var out: [String: ContractSecurityScheme] = [:]
            for (name, raw) in schemes {
                guard case .object(let s) = resolve(raw, at: "#/components/securitySchemes/" + JSONPointer.escape(name)).value else { continue }
                func string(_ key: String) -> String? { if case .string(let v)? = s[key] { v } else { nil } }
                let kind: ContractSecurityScheme.Kind
                switch string("type") {
                case "apiKey":
                    guard let key = string("name"), let place = string("in").flatMap(ContractParameter.Place.init(rawValue:)) else { continue }
                    kind = .apiKey(name: key, place: place)
                case "http":
                    kind = .http(scheme: (string("scheme") ?? "basic").lowercased())
                case "oauth2", "openIdConnect":
                    kind = .oauth2
                default:
                    kind = .unverifiable
                }
                out[name] = ContractSecurityScheme(name: name, kind: kind)
            }
            return out
        }

        /// A `security` list: each requirement's schemes (a name no scheme has is left out, as is
        /// a mutual-TLS scheme: a request shows neither).
        private func security(_ value: JSONValue?, _ schemes: [String: ContractSecurityScheme]) -> [[ContractSecurityScheme]] {
            guard case .array(let requirements)? = value else { return [] }
            var out: [[ContractSecurityScheme]] = []
            for requirement in requirements {
                guard case .object(let names) = requirement else { continue }
                out.append(names.keys.sorted().compactMap { schemes[$0] }.filter { $0.kind != .unverifiable })
            }
            // An empty requirement means no credential at all: the whole list asks for nothing.
            return out.contains { $0.isEmpty } ? [] : out
        }

        /// A `$ref`'d object's target and its pointer (a chain of them followed, a loop stopped); a
        /// `$ref` that names nothing is a problem (once: OpenAPIStructure has named path items' and
        /// operations' already).
        private mutating func resolve(_ value: JSONValue, at pointer: String) -> (value: JSONValue, pointer: String) {
            let (target, at, problem) = bundle.resolve(value, at: pointer)
            if let problem, !problems.contains(problem) { problems.append(problem) }
            return (target, at)
        }

        private mutating func parameters(_ list: JSONValue?, at pointer: String, _ compiler: SchemaCompiler) -> [ContractParameter] {
            guard case .array(let items)? = list else { return [] }
            var out: [ContractParameter] = []
            for (i, raw) in items.enumerated() {
                let (value, at) = resolve(raw, at: "\(pointer)/\(i)")
                guard case .object(let p) = value, case .string(let name)? = p["name"], case .string(let placeName)? = p["in"],
                      let place = ContractParameter.Place(rawValue: placeName) else { continue }
                var schema: JSONSchema?
                var contentType: String?
                if p["schema"] != nil {
                    schema = compile(at + "/schema", compiler)
                } else if case .object(let content)? = p["content"], let type = content.keys.sorted().first {
                    contentType = type
                    if case .object(let media)? = content[type], media["schema"] != nil {
                        schema = compile(at + "/content/" + JSONPointer.escape(type) + "/schema", compiler)
                    }
                }
                var style: ParameterStyle?
                if case .string(let written)? = p["style"] {
                    style = ParameterStyle(rawValue: written)
                    if style == nil {
                        problems.append(LoadProblem(file: bundle.rootName, message: "\(shown(at))/style: '\(written)' is not a parameter style",
                                                    hint: "OpenAPI's styles are " + ParameterStyle.allCases.map(\.rawValue).joined(separator: ", ")))
                    }
                }
                let explode: Bool? = if case .bool(let b)? = p["explode"] { b } else { nil }
                // Path parameters are always required (OpenAPI says so, whatever `required` says).
                out.append(ContractParameter(name: name, place: place, required: place == .path || p["required"] == .bool(true), schema: schema,
                                             style: style, explode: explode, contentType: contentType))
            }
            return out
        }

        private mutating func media(_ content: JSONValue?, at pointer: String, _ compiler: SchemaCompiler) -> [ContractMedia] {
            guard case .object(let types)? = content else { return [] }
            return types.keys.sorted().map { type in
                let at = pointer + "/" + JSONPointer.escape(type)
                guard case .object(let entry)? = types[type] else { return ContractMedia(type: type, schema: nil) }
                var encoding: [String: ContractEncoding] = [:]
                if case .object(let fields)? = entry["encoding"] {
                    for (name, raw) in fields {
                        guard case .object(let e) = resolve(raw, at: at + "/encoding/" + JSONPointer.escape(name)).value else { continue }
                        func string(_ key: String) -> String? { if case .string(let s)? = e[key] { s } else { nil } }
                        let explode: Bool? = if case .bool(let b)? = e["explode"] { b } else { nil }
                        encoding[name] = ContractEncoding(style: string("style"), explode: explode, contentType: string("contentType"))
                    }
                }
                let example = self.example(entry, at: at)
                guard let schema = entry["schema"] else { return ContractMedia(type: type, schema: nil, encoding: encoding, example: example) }
                // A schema that is only a `$ref` is sampled where it points, so the sampler's `$ref` budget starts fresh.
                let schemaPointer = resolve(schema, at: at + "/schema").pointer
                // A wildcard (`application/*`, `*/*`) takes an XML body too.
                let readsXML = ContentType.isXML(mediaType: type) || type.contains("*")
                return ContractMedia(type: type, schema: compile(at + "/schema", compiler), encoding: encoding, example: example,
                                     schemaPointer: schemaPointer, xml: readsXML ? XMLSchemaGuide(schema: schema, in: bundle.document) : nil)
            }
        }

        /// A media entry's `example`, or the `value` of its first `examples` entry by name.
        private mutating func example(_ entry: [String: JSONValue], at pointer: String) -> JSONValue? {
            if let example = entry["example"] { return example }
            guard case .object(let examples)? = entry["examples"], let name = examples.keys.sorted().first,
                  case .object(let example) = resolve(examples[name]!, at: pointer + "/examples/" + JSONPointer.escape(name)).value
            else { return nil }
            return example["value"]
        }

        private mutating func compile(_ pointer: String, _ compiler: SchemaCompiler) -> JSONSchema? {
            do { return try compiler.schema(at: pointer) } catch {
                let hint = "fix the schema in the spec; stubd cannot check answers against it as written"
                for problem in error.problems {
                    // `#/pointer: what`, the pointer into the bundle: named in the file the user wrote.
                    if problem.hasPrefix("#"), let colon = problem.range(of: ": ") {
                        problems.append(bundle.problem(at: String(problem[..<colon.lowerBound]), "schema: " + problem[colon.upperBound...], hint: hint))
                    } else {
                        problems.append(LoadProblem(file: bundle.rootName, message: "schema \(problem)", hint: hint))
                    }
                }
                return nil
            }
        }

        func shown(_ pointer: String) -> String { bundle.location(of: pointer) }
    }
}
