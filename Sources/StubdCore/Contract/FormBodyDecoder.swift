import Foundation
package import StubdEngine

/// A form's fields as the JSON object its schema is written for, by OpenAPI's rules for form and
/// multipart bodies: a field sent twice is a list; a value is text until the field's schema takes a
/// number or a boolean and the text spells one; `encoding` says how a list (`a=1,2` under
/// `explode: false`, `spaceDelimited`, `pipeDelimited`) or an object (`deepObject`: `a[b]=1`) is
/// written; a multipart part of a JSON type is JSON, and a file is bytes (a string).
package struct FormBodyDecoder {
    private let media: ContractMedia
    private let schema: JSONSchema
    /// Problems met while decoding (a part that is not the JSON its type says), at `body/FIELD`.
    private(set) var problems: [RequestViolation] = []
    /// Fields whose content stubd cannot judge (an XML part): their violations are dropped, and a
    /// note says so instead.
    private(set) var unchecked: [String] = []
    /// The text of each number read past 2^53, by its pointer in the instance: judged on its digits.
    private(set) var literals: [String: NumberLiteral] = [:]

    package init(media: ContractMedia, schema: JSONSchema) {
        self.media = media
        self.schema = schema
    }

    /// The object the fields spell, member order as first sent.
    package mutating func instance(of form: FormBody) -> JSONValue {
        var flat: [(name: String, fields: [FormBody.Field])] = []
        var deep: [(base: String, entries: [(path: ArraySlice<String>, field: FormBody.Field)])] = []
        for field in form.fields {
            if case let (base, path)? = deepPath(field.name) {
                if let i = deep.firstIndex(where: { $0.base == base }) { deep[i].entries.append((path, field)) } else { deep.append((base, [(path, field)])) }
            } else if let i = flat.firstIndex(where: { $0.name == field.name }) {
                flat[i].fields.append(field)
            } else {
                flat.append((field.name, [field]))
            }
        }
        var members: [String: JSONValue] = [:]
        for (name, fields) in flat {
            members[name] = value(fields, schema.memberSchemas(name), encoding: media.encoding[name] ?? .standard, at: "/" + JSONPointer.escape(name))
        }
        for (base, entries) in deep where members[base] == nil {
            members[base] = tree(entries, schema.memberSchemas(base), at: "/" + JSONPointer.escape(base))
        }
        return .object(members)
    }

    /// `a[b][c]` → (`a`, [b, c]) when `a` is a `deepObject` field or an object (or list, for `a[]`)
    /// by its schema, and `a[b][c]` is not itself a field the schema names.
    private func deepPath(_ name: String) -> (String, ArraySlice<String>)? {
        guard let open = name.firstIndex(of: "["), open != name.startIndex, name.hasSuffix("]"),
              !schema.names(name) else { return nil }
        let base = String(name[..<open])
        var keys: [String] = []
        var rest = name[open...]
        while rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            keys.append(String(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        guard rest.isEmpty else { return nil }
        let schemas = schema.memberSchemas(base)
        let declared = media.encoding[base]?.style == "deepObject"
        guard declared || schemas.contains(where: { $0.expectsObject }) || (keys == [""] && schemas.contains { $0.expectsArray }) else { return nil }
        return (base, keys[...])
    }

    /// The fields under one `deepObject` base, as an object (or a list, for `a[]=1&a[]=2`).
    private mutating func tree(_ entries: [(path: ArraySlice<String>, field: FormBody.Field)], _ schemas: [JSONSchema], at pointer: String) -> JSONValue {
        let leaves = entries.filter { $0.path.isEmpty }.map { $0.field }
        let inner = entries.filter { !$0.path.isEmpty }
        if inner.isEmpty { return value(leaves, schemas, encoding: .standard, at: pointer) }
        if inner.allSatisfy({ $0.path.first == "" }) {
            let items = schemas.flatMap(\.itemSchemas)
            var list: [JSONValue] = []
            for (i, entry) in inner.enumerated() { list.append(tree([(entry.path.dropFirst(), entry.field)], items, at: pointer + "/\(i)")) }
            return .array(list)
        }
        var order: [String] = []
        var byKey: [String: [(path: ArraySlice<String>, field: FormBody.Field)]] = [:]
        for entry in inner {
            let key = entry.path.first!
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append((entry.path.dropFirst(), entry.field))
        }
        var members: [String: JSONValue] = [:]
        for key in order {
            members[key] = tree(byKey[key]!, schemas.flatMap { $0.memberSchemas(key) }, at: pointer + "/" + JSONPointer.escape(key))
        }
        return .object(members)
    }

    /// One field's value: a list when its schema takes one (or it was sent more than once).
    private mutating func value(_ fields: [FormBody.Field], _ schemas: [JSONSchema], encoding: ContractEncoding, at pointer: String) -> JSONValue {
        if schemas.contains(where: { $0.expectsArray }) {
            let items = schemas.flatMap(\.itemSchemas)
            if fields.count == 1, !encoding.explode, !fields[0].isFile, fields[0].contentType == nil {
                let delimiter: Character = encoding.style == "spaceDelimited" ? " " : encoding.style == "pipeDelimited" ? "|" : ","
                let text = fields[0].text
                if text.isEmpty { return .array([]) }
                return .array(text.split(separator: delimiter, omittingEmptySubsequences: false).enumerated().map { i, item in
                    kept(Self.scalar(String(item), items), String(item), at: pointer + "/\(i)")
                })
            }
            var list: [JSONValue] = []
            for (i, field) in fields.enumerated() { list.append(single(field, items, encoding: encoding, at: pointer + "/\(i)")) }
            return .array(list)
        }
        if fields.count > 1 {
            var list: [JSONValue] = []
            for (i, field) in fields.enumerated() { list.append(single(field, schemas, encoding: encoding, at: pointer + "/\(i)")) }
            return .array(list)
        }
        return single(fields[0], schemas, encoding: encoding, at: pointer)
    }

    private mutating func single(_ field: FormBody.Field, _ schemas: [JSONSchema], encoding: ContractEncoding, at pointer: String) -> JSONValue {
        if let type = field.contentType, !encoding.contentTypes.isEmpty,
           !encoding.contentTypes.contains(where: { ContractMedia(type: $0, schema: nil).accepts(type) != nil }) {
            problems.append(RequestViolation(location: "body" + pointer, code: "contentType",
                                             message: "the part '\(field.name)' is \(type); the spec's encoding takes \(encoding.contentTypes.joined(separator: ", "))"))
        }
        let objectLike = schemas.contains { $0.expectsObject }
        // OpenAPI's default part type is application/json for an object, text/plain for a scalar.
        let type = field.contentType ?? encoding.contentTypes.first ?? (objectLike && media.type.lowercased().hasPrefix("multipart/") ? "application/json" : "text/plain")
        if ContentType.isJSON(mediaType: type) {
            do { return try parsed(field.value, at: pointer) } catch {
                problems.append(RequestViolation(location: "body" + pointer, code: "json", message: "the part '\(field.name)' is not JSON: \(error.message)"))
                return .string(field.text)
            }
        }
        if field.isFile || field.contentType != nil && !type.lowercased().hasPrefix("text/") {
            // A file is bytes: `format: binary` takes any. A schema that wants more of it than a
            // string cannot be judged on bytes of another type, and is said to be unchecked.
            let bytes = JSONValue.string(field.text)
            if !schemas.isEmpty, !schemas.allSatisfy({ $0.expects(.string) || $0.isValid(bytes) }) { unchecked.append(pointer) }
            return bytes
        }
        let text = field.text
        if objectLike {
            if !encoding.explode, encoding.style == "form", text.contains(",") {
                let items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                if items.count % 2 == 0 {
                    var members: [String: JSONValue] = [:]
                    for i in stride(from: 0, to: items.count, by: 2) {
                        members[items[i]] = kept(Self.scalar(items[i + 1], schemas.flatMap { $0.memberSchemas(items[i]) }), items[i + 1],
                                                 at: pointer + "/" + JSONPointer.escape(items[i]))
                    }
                    return .object(members)
                }
            }
            if text.hasPrefix("{"), let parsed = try? parsed(Data(text.utf8), at: pointer) { return parsed }
        }
        return kept(Self.scalar(text, schemas), text, at: pointer)
    }

    /// `value`, read from `text`, noting the text when it is a number past 2^53.
    private mutating func kept(_ value: JSONValue, _ text: String, at pointer: String) -> JSONValue {
        if case .number(let n) = value, n.magnitude >= NumberLiteral.exactLimit, let literal = NumberLiteral(text) { literals[pointer] = literal }
        return value
    }

    /// A JSON part, its numbers past 2^53 noted under `pointer`.
    private mutating func parsed(_ data: Data, at pointer: String) throws(JSONSyntaxError) -> JSONValue {
        let (value, found) = try JSONParser.parseKeepingLiterals(data)
        for (at, literal) in found { literals[pointer + at] = literal }
        return value
    }

    /// Text as what its schema takes: `5` is the number 5 to a number schema and the string "5" to
    /// a string one; when no reading keeps to the schema, the one of the type the schema wants is
    /// judged, so `notanumber` against `type: number` says "expected a number".
    static func scalar(_ text: String, _ schemas: [JSONSchema]) -> JSONValue {
        let string = JSONValue.string(text)
        guard !schemas.isEmpty, let first = text.utf8.first,
              first == UInt8(ascii: "-") || (0x30...0x39).contains(first) || text == "true" || text == "false",
              let parsed = try? JSONParser.parse(text) else { return string }
        switch parsed {
        case .number, .bool: break
        default: return string
        }
        for candidate in [parsed, string] where schemas.allSatisfy({ $0.isValid(candidate) }) { return candidate }
        for candidate in [parsed, string] where !schemas.contains(where: { s in
            s.validate(candidate, limit: 5).contains { $0.keyword == "type" && $0.instancePath.isEmpty }
        }) { return candidate }
        return string
    }
}
