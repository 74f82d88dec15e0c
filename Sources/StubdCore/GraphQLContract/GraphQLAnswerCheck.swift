import Foundation
package import StubdEngine

/// A GraphQL answer (`{"data": …, "errors": […]}`) held to a schema and, when the stub has it, to the
/// selection set of the query it answers: every field the query selects is there under its alias,
/// nothing it did not select is, each value has its field's type (a scalar's JSON kind, a list, an
/// object, an enum's values, no null where the type says `!`), and an interface's or a union's value
/// says which object type it is by `__typename`, which decides the fragments that apply. Without a
/// query (a `Me.graphql.json` with no `query`), only what the schema alone can say: each key is a
/// field of its type and its value has the field's type; a missing field cannot be told from one not selected.
package struct GraphQLAnswerCheck {
    let schema: GraphQLSchema
    let fragments: [String: GraphQLSelectionTree.Fragment]
    var violations: [GraphQLAnswerViolation] = []
    /// Fragments being expanded, so a fragment that spreads itself ends instead of recursing for ever.
    var expanding: Set<String> = []
    /// Fragments the query spreads and does not define: named once, after the walk.
    var missingFragments: Set<String> = []

    /// `operation`: the query's operation the stub answers; nil when the stub has no query, and then
    /// `operationType` (the root's) is guessed from the answer's fields when not known.
    package static func violations(of answer: JSONValue, schema: GraphQLSchema, tree: GraphQLSelectionTree?,
                                   operation: GraphQLSelectionTree.Operation?) -> [GraphQLAnswerViolation] {
        var check = GraphQLAnswerCheck(schema: schema, fragments: tree?.fragments ?? [:])
        check.answer(answer, operation: operation)
        for name in check.missingFragments.sorted() {
            check.report("", "(query)", "the query spreads ...\(name), a fragment it does not define",
                         hint: "add 'fragment \(name) on Type { … }' to the route's query")
        }
        return check.violations
    }

    mutating func report(_ pointer: String, _ path: String, _ message: String, hint: String? = nil) {
        violations.append(GraphQLAnswerViolation(pointer: pointer, path: path, message: message, hint: hint))
    }

    mutating func answer(_ answer: JSONValue, operation: GraphQLSelectionTree.Operation?) {
        guard case .object(let members) = answer else {
            report("", "(answer)", "a GraphQL answer is a JSON object with 'data' and/or 'errors', found \(Self.kind(of: answer))",
                   hint: #"{"data": {…}} or {"errors": [{"message": "…"}]}"#)
            return
        }
        for key in members.keys.sorted() where !["data", "errors", "extensions"].contains(key) {
            report("/" + Self.escaped(key), key, "a GraphQL answer has 'data', 'errors' and 'extensions', not '\(key)'",
                   hint: "move it under 'extensions', or into 'data' if the query selects it")
        }
        if let errors = members["errors"] { self.errors(errors) }
        if let extensions = members["extensions"], !Self.isObject(extensions) {
            report("/extensions", "extensions", "'extensions' is an object, found \(Self.kind(of: extensions))")
        }
        guard let data = members["data"] else {
            if members["errors"] == nil {
                report("", "(answer)", "a GraphQL answer needs 'data' or 'errors'", hint: #"{"data": {…}}"#)
            }
            return
        }
        if data == .null {
            if members["errors"] == nil {
                report("/data", "data", "'data' is null with no 'errors' saying why",
                       hint: "a server answers null data only with errors: add \"errors\": [{\"message\": \"…\"}]")
            }
            return
        }
        let root: GraphQLSchemaType?
        if let operation {
            root = schema.root(operation.type)
            if root == nil {
                report("/data", "data", "the schema has no \(operation.type) type, and the query is a \(operation.type)")
                return
            }
        } else {
            root = guessedRoot(for: data)
        }
        guard let root else { return }
        value(data, of: .named(root.name), selections: operation?.selections, pointer: "/data", path: "data")
    }

    /// Without a query, the root whose fields the answer's keys are: the query type unless only the
    /// mutation's (or the subscription's) has them all.
    func guessedRoot(for data: JSONValue) -> GraphQLSchemaType? {
        guard case .object(let members) = data else { return schema.root("query") }
        let keys = Set(members.keys).subtracting(["__typename"])
        for operation in ["query", "mutation", "subscription"] {
            if let root = schema.root(operation), keys.isSubset(of: Set(root.fields.keys)) { return root }
        }
        return schema.root("query")
    }

    /// `selections` nil: no query to hold the value to, the schema alone.
    mutating func value(_ value: JSONValue, of type: GraphQLTypeReference, selections: [GraphQLSelection]?, pointer: String, path: String) {
        switch type {
        case .nonNull(let inner):
            if value == .null {
                report(pointer, path, "null, but the schema says \(type): a server never answers null here",
                       hint: "give a value, or null a nullable field above it and say why in 'errors'")
                return
            }
            self.value(value, of: inner, selections: selections, pointer: pointer, path: path)
        case .list(let inner):
            if value == .null { return }
            guard case .array(let items) = value else {
                report(pointer, path, "expected a list (\(type)), found \(Self.kind(of: value))")
                return
            }
            for (i, item) in items.enumerated() {
                self.value(item, of: inner, selections: selections, pointer: "\(pointer)/\(i)", path: "\(path)[\(i)]")
            }
        case .named(let typeName):
            if value == .null { return }
            named(value, typeName, selections: selections, pointer: pointer, path: path)
        }
    }

    mutating func named(_ value: JSONValue, _ typeName: String, selections: [GraphQLSelection]?, pointer: String, path: String) {
        if GraphQLSchema.builtInScalars.contains(typeName) {
            if let expected = Self.scalarMismatch(value, typeName) {
                report(pointer, path, "expected \(expected) (\(typeName)), found \(Self.kind(of: value))")
            }
            return
        }
        guard let type = schema.types[typeName] else { return }
        switch type.kind {
        case .scalar, .inputObject:
            // A custom scalar's JSON is the server's to choose (a date as text, a JSON blob as an object).
            return
        case .enum:
            guard case .string(let text) = value else {
                report(pointer, path, "expected one of \(typeName)'s values as a string, found \(Self.kind(of: value))")
                return
            }
            if !type.enumValues.contains(text) {
                report(pointer, path, "'\(text)' is not a value of the enum \(typeName) (\(type.enumValues.sorted().joined(separator: ", ")))",
                       hint: "use one of the schema's values; a client's generated enum cannot decode another")
            }
        case .object, .interface, .union:
            object(value, type, selections: selections, pointer: pointer, path: path)
        }
    }

    mutating func object(_ value: JSONValue, _ type: GraphQLSchemaType, selections: [GraphQLSelection]?, pointer: String, path: String) {
        guard case .object(let members) = value else {
            report(pointer, path, "expected an object (\(type.name)), found \(Self.kind(of: value))")
            return
        }
        // Which object type the value is: the field's own when it is an object type; an interface's or
        // a union's, the one its `__typename` names.
        var concrete: GraphQLSchemaType? = type.kind == .object ? type : nil
        if let typename = members["__typename"] {
            let place = pointer + "/__typename"
            if case .string(let name) = typename {
                let possible = schema.possibleTypes(of: type)
                if possible.contains(name), let named = schema.types[name] {
                    concrete = named
                } else {
                    let expected = type.kind == .object ? "'\(type.name)'" : "one of \(possible.sorted().joined(separator: ", "))"
                    report(place, path + ".__typename", "'\(name)' is not a type this field can be: expected \(expected)")
                }
            } else {
                report(place, path + ".__typename", "expected a string (the object's type name), found \(Self.kind(of: typename))")
            }
        }
        guard let selections else {
            schemaOnly(members, type: concrete ?? type, pointer: pointer, path: path)
            return
        }
        var expected: [(key: String, field: String, selections: [GraphQLSelection], conditional: Bool)] = []
        var unsure = false
        collect(selections, in: type, concrete: concrete, conditional: false, into: &expected, unsure: &unsure)
        var seen = Set<String>()
        for entry in expected where seen.insert(entry.key).inserted {
            let all = expected.filter { $0.key == entry.key }
            let conditional = all.allSatisfy(\.conditional)
            let childPointer = pointer + "/" + Self.escaped(entry.key)
            let childPath = path + "." + entry.key
            guard let child = members[entry.key] else {
                if !conditional {
                    let alias = entry.key == entry.field ? "" : " (\(entry.field) under its alias \(entry.key))"
                    report(pointer, childPath, "missing: the query selects '\(entry.key)'\(alias) on \(concrete?.name ?? type.name)",
                           hint: "add \"\(entry.key)\" to the answer, or take it out of the route's query; Apollo's generated models fail on a missing field")
                }
                continue
            }
            // Its value was held to the field's type above, with the rest of the object.
            if entry.field == "__typename" { continue }
            let owner = concrete ?? type
            guard let fieldType = owner.fields[entry.field] ?? type.fields[entry.field] else {
                if entry.field.hasPrefix("__") { continue }
                report(childPointer, childPath, "the query selects '\(entry.field)', which \(owner.name) does not have in the schema",
                       hint: "fix the route's query, or the schema")
                continue
            }
            // A field selected more than once (two fragments) merges its selection sets (spec §6.3.2).
            self.value(child, of: fieldType, selections: all.flatMap(\.selections), pointer: childPointer, path: childPath)
        }
        if unsure { return }
        // `__typename` unasked is let be (its value is checked above): Apollo's clients add it to
        // every selection set of the query they send, so an answer recorded from one has it where
        // the query as the user wrote it does not ask for it.
        for key in members.keys.sorted() where !seen.contains(key) && key != "__typename" {
            report(pointer + "/" + Self.escaped(key), path + "." + key, "not selected: the query does not ask for '\(key)' here",
                   hint: "take it out of the answer, or add it to the route's query; a real server sends only what was selected")
        }
    }

    /// The fields a selection set asks of a value (spec §6.3.2, CollectFields), keyed as the answer
    /// keys them. A fragment on another type applies when the value's `__typename` is one of it;
    /// `unsure` when one cannot be told (an interface's value with no `__typename`).
    mutating func collect(_ selections: [GraphQLSelection], in type: GraphQLSchemaType, concrete: GraphQLSchemaType?, conditional: Bool,
                          into expected: inout [(key: String, field: String, selections: [GraphQLSelection], conditional: Bool)],
                          unsure: inout Bool) {
        for selection in selections {
            switch selection {
            case .field(let alias, let name, let children, let isConditional, _, _):
                expected.append((alias ?? name, name, children, conditional || isConditional))
            case .fragmentSpread(let name, let isConditional):
                guard let fragment = fragments[name] else {
                    missingFragments.insert(name)
                    continue
                }
                guard expanding.insert(name).inserted else { continue }
                apply(fragment.typeCondition, fragment.selections, in: type, concrete: concrete, conditional: conditional || isConditional,
                      into: &expected, unsure: &unsure)
                expanding.remove(name)
            case .inlineFragment(let condition, let children, let isConditional):
                apply(condition, children, in: type, concrete: concrete, conditional: conditional || isConditional, into: &expected, unsure: &unsure)
            }
        }
    }

    mutating func apply(_ condition: String?, _ selections: [GraphQLSelection], in type: GraphQLSchemaType, concrete: GraphQLSchemaType?,
                        conditional: Bool, into expected: inout [(key: String, field: String, selections: [GraphQLSelection], conditional: Bool)],
                        unsure: inout Bool) {
        guard let condition, condition != type.name else {
            collect(selections, in: type, concrete: concrete, conditional: conditional, into: &expected, unsure: &unsure)
            return
        }
        if let concrete {
            if schema.fragment(on: condition, appliesTo: concrete.name) {
                collect(selections, in: type, concrete: concrete, conditional: conditional, into: &expected, unsure: &unsure)
            }
        } else {
            // No `__typename` to decide by: the fragment's fields may or may not be there.
            unsure = true
            collect(selections, in: type, concrete: concrete, conditional: true, into: &expected, unsure: &unsure)
        }
    }

    /// No query: each key a field of the type, each value of the field's type.
    mutating func schemaOnly(_ members: [String: JSONValue], type: GraphQLSchemaType, pointer: String, path: String) {
        for key in members.keys.sorted() where key != "__typename" {
            let childPointer = pointer + "/" + Self.escaped(key)
            guard let fieldType = type.fields[key] else {
                // A union's fields are its members': with no `__typename`, nothing to hold them to.
                if type.kind == .union { continue }
                report(childPointer, path + "." + key, "'\(key)' is not a field of \(type.name)",
                       hint: "fields of \(type.name): \(type.fields.keys.sorted().joined(separator: ", ")); with an alias, give the route its query (graphql.query) so stubd knows it")
                continue
            }
            value(members[key]!, of: fieldType, selections: nil, pointer: childPointer, path: path + "." + key)
        }
    }

    /// `errors`: a list of objects, each with a `message` string, and a `path` (field names and list
    /// indexes) and `locations` (`{line, column}`, from 1) when it has them (spec §7.1.2).
    mutating func errors(_ errors: JSONValue) {
        guard case .array(let entries) = errors else {
            report("/errors", "errors", "'errors' is a list, found \(Self.kind(of: errors))", hint: #""errors": [{"message": "…"}]"#)
            return
        }
        if entries.isEmpty {
            report("/errors", "errors", "'errors' is empty: a server leaves it out when there is none")
        }
        for (i, entry) in entries.enumerated() {
            let pointer = "/errors/\(i)", path = "errors[\(i)]"
            guard case .object(let members) = entry else {
                report(pointer, path, "an error is an object with a 'message', found \(Self.kind(of: entry))")
                continue
            }
            switch members["message"] {
            case .string?: break
            case nil: report(pointer, path + ".message", "an error needs a 'message' string", hint: #"{"message": "what went wrong"}"#)
            case let other?: report(pointer + "/message", path + ".message", "expected a string, found \(Self.kind(of: other))")
            }
            if let errorPath = members["path"] {
                if case .array(let segments) = errorPath {
                    for (j, segment) in segments.enumerated() {
                        switch segment {
                        case .string: continue
                        case .number(let n) where n >= 0 && n == n.rounded(): continue
                        default:
                            report("\(pointer)/path/\(j)", "\(path).path[\(j)]",
                                   "a path segment is a field's name (a string) or a list index (an integer from 0), found \(Self.kind(of: segment))")
                        }
                    }
                } else {
                    report(pointer + "/path", path + ".path", "'path' is a list of field names and indexes, found \(Self.kind(of: errorPath))",
                           hint: #""path": ["weather", "forecast", 2]"#)
                }
            }
            if let locations = members["locations"] {
                if case .array(let items) = locations {
                    for (j, location) in items.enumerated() {
                        let where_ = "\(pointer)/locations/\(j)", shown = "\(path).locations[\(j)]"
                        guard case .object(let place) = location,
                              case .number(let line)? = place["line"], case .number(let column)? = place["column"],
                              line >= 1, column >= 1, line == line.rounded(), column == column.rounded() else {
                            report(where_, shown, "a location is {\"line\": N, \"column\": N}, each an integer from 1")
                            continue
                        }
                    }
                } else {
                    report(pointer + "/locations", path + ".locations", "'locations' is a list of {line, column}, found \(Self.kind(of: locations))")
                }
            }
            if let extensions = members["extensions"], !Self.isObject(extensions) {
                report(pointer + "/extensions", path + ".extensions", "'extensions' is an object, found \(Self.kind(of: extensions))")
            }
        }
    }

    /// What a built-in scalar expects when `value` is not it, nil when it is.
    static func scalarMismatch(_ value: JSONValue, _ scalar: String) -> String? {
        switch (scalar, value) {
        case ("String", .string), ("Boolean", .bool), ("Float", .number): return nil
        case ("Int", .number(let n)) where n == n.rounded() && abs(n) <= 2_147_483_647: return nil
        case ("ID", .string): return nil
        case ("ID", .number(let n)) where n == n.rounded(): return nil
        case ("Int", _): return "an integer (32-bit)"
        case ("Float", _): return "a number"
        case ("String", _): return "a string"
        case ("Boolean", _): return "true or false"
        default: return "a string or an integer"
        }
    }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let n): n == n.rounded() ? "a number (\(Int(exactly: n).map(String.init) ?? String(n)))" : "a number (\(n))"
        case .string(let s): "a string (\"\(s.count > 40 ? String(s.prefix(37)) + "…" : s)\")"
        case .array: "a list"
        case .object: "an object"
        }
    }

    static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { true } else { false }
    }

    /// A key as a JSON pointer token (RFC 6901).
    static func escaped(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

