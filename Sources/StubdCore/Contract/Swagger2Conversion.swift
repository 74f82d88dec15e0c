import StubdEngine

/// A Swagger 2.0 document read as the OpenAPI 3.0 document it describes, so `openapi import`,
/// `check --spec` and `serve --spec` take it as they take 3.0: `body` and `formData` parameters
/// become a `requestBody` (one entry per `consumes` type), a response's `schema` its `content` (one
/// per `produces` type), `definitions` / `parameters` / `responses` / `securityDefinitions` the
/// matching `components` (every `$ref` to them rewritten), `host` + `basePath` + `schemes` the
/// `servers`, and a parameter's `type`/`format`/`items` its `schema`.
///
/// `origins` maps each place in the converted document back to where it was written, so every
/// message names the user's file, line and 2.0 pointer, not a place in a document they never saw.
struct Swagger2Conversion {
    private let source: SpecBundle
    /// Converted pointer prefix → the pointer it came from (both into the bundle).
    private(set) var origins: [(converted: String, original: String)] = []
    private var globalConsumes: [String] = ["application/json"]
    private var globalProduces: [String] = ["application/json"]

    static func convert(_ bundle: SpecBundle) -> (document: JSONValue, origins: [(converted: String, original: String)]) {
        var conversion = Swagger2Conversion(source: bundle)
        let document = conversion.run()
        return (document, conversion.origins)
    }

    private init(source: SpecBundle) {
        self.source = source
    }

    /// Parameter keys that describe its value: in 3.0 they are the parameter's `schema`.
    private static let schemaKeys: Set<String> = ["type", "format", "items", "default", "maximum", "exclusiveMaximum", "minimum",
                                                  "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
                                                  "uniqueItems", "enum", "multipleOf"]
    private static let formTypes: Set<String> = ["application/x-www-form-urlencoded", "multipart/form-data"]

    private mutating func run() -> JSONValue {
        guard case .object(let swagger) = source.document else { return source.document }
        globalConsumes = Self.strings(swagger["consumes"]) ?? globalConsumes
        globalProduces = Self.strings(swagger["produces"]) ?? globalProduces
        var out: [String: JSONValue] = ["openapi": .string("3.0.3")]
        for (key, value) in swagger where key.hasPrefix("x-") || ["info", "tags", "externalDocs"].contains(key) {
            out[key] = value
        }
        if let security = swagger["security"] { out["security"] = Self.securityRequirements(security) }
        if let servers = Self.servers(swagger) { out["servers"] = servers }

        var components: [String: JSONValue] = [:]
        if case .object(let definitions)? = swagger["definitions"] {
            components["schemas"] = .object(Self.renamingKeys(definitions.mapValues(Self.schema)))
            for name in definitions.keys {
                moved("#/components/schemas/" + JSONPointer.escape(Self.componentName(name)), from: "#/definitions/" + JSONPointer.escape(name))
            }
        }
        if case .object(let parameters)? = swagger["parameters"] {
            var converted: [String: JSONValue] = [:]
            for (name, raw) in parameters {
                // A body or form parameter is a request body in 3.0: it is put in place where used.
                guard case .object(let p) = raw, !["body", "formData"].contains(Self.string(p["in"])) else { continue }
                let at = "#/parameters/" + JSONPointer.escape(name)
                let key = Self.componentName(name)
                converted[key] = parameter(p, from: at, to: "#/components/parameters/" + JSONPointer.escape(key))
            }
            if !converted.isEmpty { components["parameters"] = .object(converted) }
        }
        if case .object(let responses)? = swagger["responses"] {
            var converted: [String: JSONValue] = [:]
            for (name, raw) in responses {
                let at = "#/responses/" + JSONPointer.escape(name)
                let key = Self.componentName(name)
                converted[key] = response(raw, produces: globalProduces, from: at, to: "#/components/responses/" + JSONPointer.escape(key))
            }
            components["responses"] = .object(converted)
        }
        if case .object(let schemes)? = swagger["securityDefinitions"] {
            components["securitySchemes"] = .object(Self.renamingKeys(schemes.mapValues(Self.securityScheme)))
            for name in schemes.keys {
                moved("#/components/securitySchemes/" + JSONPointer.escape(Self.componentName(name)), from: "#/securityDefinitions/" + JSONPointer.escape(name))
            }
        }
        if !components.isEmpty { out["components"] = .object(components) }

        var paths: [String: JSONValue] = [:]
        if case .object(let items)? = swagger["paths"] {
            for template in items.keys.sorted() {
                let converted = "#/paths/" + JSONPointer.escape(template)
                if template.hasPrefix("x-") { paths[template] = items[template]; continue }
                let (resolved, at, _) = source.resolve(items[template]!, at: converted)
                guard case .object(let item) = resolved else { paths[template] = resolved; continue }
                moved(converted, from: at)
                paths[template] = .object(pathItem(item, from: at, to: converted))
            }
        }
        out["paths"] = .object(paths)
        return Self.rewritingReferences(.object(out))
    }

    private mutating func moved(_ converted: String, from original: String) {
        if converted != original { origins.append((converted, original)) }
    }

    private mutating func pathItem(_ item: [String: JSONValue], from at: String, to converted: String) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        var shared: [(value: [String: JSONValue], at: String)] = []
        var sharedOther: [JSONValue] = []
        if case .array(let list)? = item["parameters"] {
            for (i, raw) in list.enumerated() {
                let (resolved, pAt) = parameterTarget(raw, at: "\(at)/parameters/\(i)")
                guard case .object(let p) = resolved else { continue }
                if ["body", "formData"].contains(Self.string(p["in"])) { shared.append((p, pAt)); continue }
                sharedOther.append(self.converted(raw, p, from: pAt, to: "\(converted)/parameters/\(sharedOther.count)"))
            }
        }
        if !sharedOther.isEmpty { out["parameters"] = .array(sharedOther) }
        for (key, value) in item where key.hasPrefix("x-") { out[key] = value }
        for method in ContractOperation.methodNames {
            guard let raw = item[method] else { continue }
            let (resolved, opAt, _) = source.resolve(raw, at: at + "/" + method)
            guard case .object(let op) = resolved else { continue }
            moved(converted + "/" + method, from: opAt)
            out[method] = .object(operation(op, shared: shared, from: opAt, to: converted + "/" + method))
        }
        return out
    }

    private mutating func operation(_ op: [String: JSONValue], shared: [(value: [String: JSONValue], at: String)],
                                    from at: String, to converted: String) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for (key, value) in op where key.hasPrefix("x-") || ["tags", "summary", "description", "externalDocs", "operationId",
                                                             "deprecated"].contains(key) {
            out[key] = value
        }
        if let security = op["security"] { out["security"] = Self.securityRequirements(security) }
        let consumes = Self.strings(op["consumes"]) ?? globalConsumes
        let produces = Self.strings(op["produces"]) ?? globalProduces
        var parameters: [JSONValue] = []
        var bodies = shared
        if case .array(let list)? = op["parameters"] {
            for (i, raw) in list.enumerated() {
                let (resolved, pAt) = parameterTarget(raw, at: "\(at)/parameters/\(i)")
                guard case .object(let p) = resolved else { continue }
                if ["body", "formData"].contains(Self.string(p["in"])) {
                    bodies.removeAll { Self.string($0.value["name"]) == Self.string(p["name"]) }
                    bodies.append((p, pAt))
                    continue
                }
                parameters.append(self.converted(raw, p, from: pAt, to: "\(converted)/parameters/\(parameters.count)"))
            }
        }
        if !parameters.isEmpty { out["parameters"] = .array(parameters) }
        if let body = requestBody(bodies, consumes: consumes, to: converted + "/requestBody") { out["requestBody"] = body }
        if case .object(let responses)? = op["responses"] {
            var converted2: [String: JSONValue] = [:]
            for (status, raw) in responses {
                let escaped = "/responses/" + JSONPointer.escape(status)
                converted2[status] = response(raw, produces: produces, from: at + escaped, to: converted + escaped)
            }
            out["responses"] = .object(converted2)
        }
        return out
    }

    /// A parameter after a `$ref` into `#/parameters` (2.0's) or another file.
    private func parameterTarget(_ raw: JSONValue, at pointer: String) -> (JSONValue, String) {
        let (value, at, _) = source.resolve(raw, at: pointer)
        return (value, at)
    }

    /// A non-body parameter as written: a `$ref` to a shared one stays a `$ref` (to components).
    private mutating func converted(_ raw: JSONValue, _ p: [String: JSONValue], from at: String, to converted: String) -> JSONValue {
        if case .object(let members) = raw, members["$ref"] != nil { return raw }
        return parameter(p, from: at, to: converted)
    }

    private mutating func parameter(_ p: [String: JSONValue], from at: String, to converted: String) -> JSONValue {
        var out: [String: JSONValue] = [:]
        var schema: [String: JSONValue] = [:]
        for (key, value) in p {
            if Self.schemaKeys.contains(key) { schema[key] = key == "items" ? Self.schema(Self.withoutCollectionFormat(value)) : value }
            else if key != "collectionFormat" { out[key] = value }
        }
        moved(converted, from: at)
        moved(converted + "/schema", from: at)
        out["schema"] = Self.schema(.object(schema))
        let place = Self.string(p["in"]) ?? "query"
        switch Self.string(p["collectionFormat"]) ?? (Self.string(p["type"]) == "array" ? "csv" : "") {
        case "multi": out["style"] = .string("form"); out["explode"] = .bool(true)
        case "ssv": out["style"] = .string("spaceDelimited"); out["explode"] = .bool(false)
        case "pipes": out["style"] = .string("pipeDelimited"); out["explode"] = .bool(false)
        case "csv", "tsv":
            out["style"] = .string(place == "query" || place == "cookie" ? "form" : "simple")
            out["explode"] = .bool(false)
        default: break
        }
        return .object(out)
    }

    private mutating func requestBody(_ bodies: [(value: [String: JSONValue], at: String)], consumes: [String], to converted: String) -> JSONValue? {
        if let body = bodies.first(where: { Self.string($0.value["in"]) == "body" }) {
            var content: [String: JSONValue] = [:]
            let schema = Self.schema(body.value["schema"] ?? .object([:]))
            for type in consumes.isEmpty ? ["application/json"] : consumes {
                content[type] = .object(["schema": schema])
                moved(converted + "/content/" + JSONPointer.escape(type) + "/schema", from: body.at + "/schema")
            }
            moved(converted, from: body.at)
            var out: [String: JSONValue] = ["content": .object(content)]
            if body.value["required"] == .bool(true) { out["required"] = .bool(true) }
            if let description = body.value["description"] { out["description"] = description }
            return .object(out)
        }
        let form = bodies.filter { Self.string($0.value["in"]) == "formData" }
        guard let first = form.first else { return nil }
        var properties: [String: JSONValue] = [:]
        var required: [JSONValue] = []
        var types = consumes.filter { Self.formTypes.contains($0) }
        if types.isEmpty {
            types = [form.contains { Self.string($0.value["type"]) == "file" } ? "multipart/form-data" : "application/x-www-form-urlencoded"]
        }
        for field in form {
            guard let name = Self.string(field.value["name"]) else { continue }
            var schema: [String: JSONValue] = [:]
            for (key, value) in field.value where Self.schemaKeys.contains(key) || key == "description" {
                schema[key] = key == "items" ? Self.schema(Self.withoutCollectionFormat(value)) : value
            }
            properties[name] = Self.schema(.object(schema))
            if field.value["required"] == .bool(true) { required.append(.string(name)) }
            for type in types {
                moved(converted + "/content/" + JSONPointer.escape(type) + "/schema/properties/" + JSONPointer.escape(name), from: field.at)
            }
        }
        var schema: [String: JSONValue] = ["type": .string("object"), "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required) }
        moved(converted, from: first.at)
        return .object(["content": .object(Dictionary(uniqueKeysWithValues: types.map { ($0, JSONValue.object(["schema": .object(schema)])) })),
                        "required": .bool(!required.isEmpty)])
    }

    private mutating func response(_ raw: JSONValue, produces: [String], from at: String, to converted: String) -> JSONValue {
        guard case .object(let r) = raw, r["$ref"] == nil else { return raw }
        moved(converted, from: at)
        var out: [String: JSONValue] = [:]
        for (key, value) in r where key.hasPrefix("x-") || key == "description" { out[key] = value }
        var content: [String: JSONValue] = [:]
        if let schema = r["schema"] {
            for type in produces.isEmpty ? ["application/json"] : produces {
                content[type] = .object(["schema": Self.schema(schema)])
                moved(converted + "/content/" + JSONPointer.escape(type) + "/schema", from: at + "/schema")
            }
        }
        if case .object(let examples)? = r["examples"] {
            for (type, example) in examples {
                var media: [String: JSONValue] = [:]
                if case .object(let existing)? = content[type] { media = existing }
                media["example"] = example
                content[type] = .object(media)
            }
        }
        if !content.isEmpty { out["content"] = .object(content) }
        if case .object(let headers)? = r["headers"] {
            var convertedHeaders: [String: JSONValue] = [:]
            for (name, rawHeader) in headers {
                guard case .object(let h) = rawHeader else { continue }
                var header: [String: JSONValue] = [:]
                var schema: [String: JSONValue] = [:]
                for (key, value) in h {
                    if Self.schemaKeys.contains(key) { schema[key] = value } else if key != "collectionFormat" { header[key] = value }
                }
                header["schema"] = Self.schema(.object(schema))
                let escaped = "/headers/" + JSONPointer.escape(name)
                moved(converted + escaped + "/schema", from: at + escaped)
                convertedHeaders[name] = .object(header)
            }
            out["headers"] = .object(convertedHeaders)
        }
        return .object(out)
    }

    /// A 2.0 schema as 3.0 reads it: `type: file` is binary text, `x-nullable` is `nullable`, and a
    /// discriminator that names a property is an object naming it.
    private static func schema(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            return .array(items.map(schema))
        case .object(var members):
            for (key, member) in members where key != "example" && key != "enum" && key != "default" && !key.hasPrefix("x-") {
                members[key] = schema(member)
            }
            if case .string("file")? = members["type"] {
                members["type"] = .string("string")
                members["format"] = .string("binary")
            }
            if let nullable = members.removeValue(forKey: "x-nullable") { members["nullable"] = nullable }
            if case .string(let property)? = members["discriminator"] { members["discriminator"] = .object(["propertyName": .string(property)]) }
            return .object(members)
        default:
            return value
        }
    }

    private static func withoutCollectionFormat(_ value: JSONValue) -> JSONValue {
        guard case .object(var members) = value else { return value }
        members["collectionFormat"] = nil
        if let items = members["items"] { members["items"] = withoutCollectionFormat(items) }
        return .object(members)
    }

    /// `#/definitions/Pet` → `#/components/schemas/Pet`, and likewise for parameters and responses.
    private static func rewritingReferences(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            return .array(items.map(rewritingReferences))
        case .object(var members):
            for (key, member) in members where key != "example" && key != "examples" {
                if key == "$ref", case .string(let ref) = member {
                    members[key] = .string(Self.rewritten(ref))
                } else {
                    members[key] = rewritingReferences(member)
                }
            }
            return .object(members)
        default:
            return value
        }
    }

    private static func rewritten(_ ref: String) -> String {
        for (old, new) in [("#/definitions/", "#/components/schemas/"), ("#/parameters/", "#/components/parameters/"),
                           ("#/responses/", "#/components/responses/")] where ref.hasPrefix(old) {
            let rest = ref.dropFirst(old.count)
            let token = rest.prefix { $0 != "/" }
            guard let name = JSONPointer.tokens(ofFragment: "#/" + token)?.first else { return new + rest }
            return new + JSONPointer.escape(componentName(name)) + rest.dropFirst(token.count)
        }
        return ref
    }

    /// A 2.0 name as a 3.0 component's key. 2.0 puts no rule on `definitions` or `securityDefinitions`
    /// names (Pendo's `userApiKey (request header)`); 3.0's keys are `[a-zA-Z0-9._-]+`, and OpenAPIKit
    /// refused the converted document for the user's spec. Each other character becomes `_`.
    static func componentName(_ name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let renamed = String(name.map { allowed.contains($0) ? $0 : "_" })
        return renamed.isEmpty ? "_" : renamed
    }

    private static func renamingKeys(_ members: [String: JSONValue]) -> [String: JSONValue] {
        Dictionary(members.map { (componentName($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Security requirements name schemes by their keys: renamed as the schemes are.
    private static func securityRequirements(_ value: JSONValue) -> JSONValue {
        guard case .array(let requirements) = value else { return value }
        return .array(requirements.map { requirement in
            guard case .object(let members) = requirement else { return requirement }
            return .object(renamingKeys(members))
        })
    }

    private static func servers(_ swagger: [String: JSONValue]) -> JSONValue? {
        let basePath = string(swagger["basePath"]) ?? ""
        guard let host = string(swagger["host"]) else {
            return basePath.isEmpty ? nil : .array([.object(["url": .string(basePath)])])
        }
        let schemes = strings(swagger["schemes"]) ?? ["https"]
        return .array(schemes.map { JSONValue.object(["url": .string("\($0)://\(host)\(basePath)")]) })
    }

    private static func securityScheme(_ value: JSONValue) -> JSONValue {
        guard case .object(let s) = value else { return value }
        var out: [String: JSONValue] = [:]
        if let description = s["description"] { out["description"] = description }
        switch string(s["type"]) {
        case "basic":
            out["type"] = .string("http")
            out["scheme"] = .string("basic")
        case "apiKey":
            out["type"] = .string("apiKey")
            out["name"] = s["name"]
            out["in"] = s["in"]
        case "oauth2":
            out["type"] = .string("oauth2")
            var flow: [String: JSONValue] = ["scopes": s["scopes"] ?? .object([:])]
            if let url = s["authorizationUrl"] { flow["authorizationUrl"] = url }
            if let url = s["tokenUrl"] { flow["tokenUrl"] = url }
            let name = ["implicit": "implicit", "password": "password", "application": "clientCredentials",
                        "accessCode": "authorizationCode"][string(s["flow"]) ?? ""] ?? "implicit"
            out["flows"] = .object([name: .object(flow)])
        default:
            return value
        }
        return .object(out)
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let s)? = value { s } else { nil }
    }

    private static func strings(_ value: JSONValue?) -> [String]? {
        guard case .array(let items)? = value else { return nil }
        return items.compactMap { string($0) }
    }
}
