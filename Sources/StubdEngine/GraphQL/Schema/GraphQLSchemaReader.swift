/// A recursive-descent reader of SDL (spec, October 2021, §3) over `GraphQLLexer`'s tokens: type,
/// interface, union, enum, input, scalar, schema and directive definitions and their `extend`s.
/// Descriptions, directives, arguments and default values are read past: an answer is not held to them.
struct GraphQLSchemaReader {
    let tokens: [GraphQLToken]
    var index = 0
    var types: [String: GraphQLSchemaType] = [:]
    var roots: [String: String] = [:]
    /// Every named type a definition refers to, with where: each must be defined (checked at the end).
    var references: [(name: String, token: GraphQLToken)] = []
    /// Nesting past which a default value is refused: the reader recurses.
    static let maximumDepth = 128
    var depth = 0

    init(tokens: [GraphQLToken]) {
        self.tokens = tokens
    }

    var current: GraphQLToken { tokens[index] }

    mutating func advance() -> GraphQLToken {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    func error(_ message: String, at token: GraphQLToken? = nil) -> GraphQLSchemaError {
        let token = token ?? current
        let found = token.kind == .end ? "the end of the schema" : "'\(token.text)'"
        return GraphQLSchemaError(message: "\(message), found \(found)", line: token.line, column: token.column)
    }

    mutating func expect(_ punctuator: String, _ what: String) throws(GraphQLSchemaError) {
        guard current.is(punctuator) else { throw error("expected '\(punctuator)' \(what)") }
        _ = advance()
    }

    mutating func name(_ what: String) throws(GraphQLSchemaError) -> String {
        guard current.kind == .name else { throw error("expected \(what)") }
        return advance().text
    }

    mutating func skipDescription() {
        if current.kind == .string { _ = advance() }
    }

    mutating func schema() throws(GraphQLSchemaError) -> GraphQLSchema {
        guard current.kind != .end else { throw error("a schema needs at least one type") }
        var explicitRoots = false
        while current.kind != .end {
            skipDescription()
            let start = current
            var keyword = try name("a definition (type, interface, union, enum, input, scalar, schema, directive)")
            let extending = keyword == "extend"
            if extending { keyword = try name("what 'extend' extends (type, interface, union, enum, input, scalar, schema)") }
            switch keyword {
            case "schema":
                try directives()
                try expect("{", "to open the schema's operation types")
                while !current.is("}") {
                    let operation = current
                    let operationType = try name("an operation type (query, mutation, subscription)")
                    guard ["query", "mutation", "subscription"].contains(operationType) else {
                        throw error("expected query, mutation or subscription", at: operation)
                    }
                    try expect(":", "after an operation type")
                    let typeToken = current
                    let typeName = try name("the operation's root type")
                    references.append((typeName, typeToken))
                    roots[operationType] = typeName
                }
                _ = advance()
                explicitRoots = true
            case "scalar":
                let token = current
                let typeName = try name("the scalar's name")
                try define(typeName, .scalar, at: token, extending: extending)
                try directives()
            case "type", "interface", "input":
                let token = current
                let typeName = try name("the type's name")
                let kind: GraphQLSchemaType.Kind = keyword == "type" ? .object : keyword == "interface" ? .interface : .inputObject
                try define(typeName, kind, at: token, extending: extending)
                if current.kind == .name, current.text == "implements" {
                    _ = advance()
                    if current.is("&") { _ = advance() }
                    repeat {
                        let interfaceToken = current
                        let interface = try name("an interface's name")
                        references.append((interface, interfaceToken))
                        types[typeName]!.interfaces.append(interface)
                        guard current.is("&") else { break }
                        _ = advance()
                    } while true
                }
                try directives()
                if current.is("{") { try fields(of: typeName, input: kind == .inputObject) }
            case "union":
                let token = current
                let typeName = try name("the union's name")
                try define(typeName, .union, at: token, extending: extending)
                try directives()
                if current.is("=") {
                    _ = advance()
                    if current.is("|") { _ = advance() }
                    repeat {
                        let memberToken = current
                        let member = try name("a union member's name")
                        references.append((member, memberToken))
                        types[typeName]!.members.append(member)
                        guard current.is("|") else { break }
                        _ = advance()
                    } while true
                }
            case "enum":
                let token = current
                let typeName = try name("the enum's name")
                try define(typeName, .enum, at: token, extending: extending)
                try directives()
                if current.is("{") {
                    _ = advance()
                    while !current.is("}") {
                        skipDescription()
                        let valueToken = current
                        let value = try name("an enum value")
                        if ["true", "false", "null"].contains(value) { throw error("an enum value cannot be \(value)", at: valueToken) }
                        types[typeName]!.enumValues.insert(value)
                        try directives()
                    }
                    _ = advance()
                }
            case "directive" where !extending:
                try expect("@", "before a directive's name")
                _ = try name("the directive's name")
                if current.is("(") { try argumentDefinitions() }
                if current.kind == .name, current.text == "repeatable" { _ = advance() }
                guard current.kind == .name, current.text == "on" else { throw error("expected 'on' and the places a directive goes") }
                _ = advance()
                if current.is("|") { _ = advance() }
                repeat {
                    _ = try name("a directive location (FIELD_DEFINITION, OBJECT…)")
                    guard current.is("|") else { break }
                    _ = advance()
                } while true
            case "query", "mutation", "subscription", "fragment":
                throw error("a schema holds type definitions, not operations (is this a query document?)", at: start)
            default:
                throw error("expected a definition (type, interface, union, enum, input, scalar, schema, directive)", at: start)
            }
        }
        if !explicitRoots {
            for (operation, typeName) in [("query", "Query"), ("mutation", "Mutation"), ("subscription", "Subscription")]
            where types[typeName] != nil {
                roots[operation] = typeName
            }
        }
        try checkReferences()
        return GraphQLSchema(types: types, roots: roots)
    }

    /// A definition, or an `extend` of one defined (the order of definitions does not matter in SDL,
    /// so an extension before its type is taken as written).
    mutating func define(_ typeName: String, _ kind: GraphQLSchemaType.Kind, at token: GraphQLToken, extending: Bool) throws(GraphQLSchemaError) {
        if let existing = types[typeName] {
            guard extending else {
                throw error("type \(typeName) is defined twice (first at line \(existing.line), column \(existing.column))", at: token)
            }
            guard existing.kind == kind else {
                throw error("'extend' makes \(typeName) a \(kind.rawValue), but it is a \(existing.kind.rawValue)", at: token)
            }
            return
        }
        if typeName.hasPrefix("__") { throw error("names starting with __ are GraphQL's own", at: token) }
        types[typeName] = GraphQLSchemaType(name: typeName, kind: kind, line: token.line, column: token.column)
    }

    mutating func fields(of typeName: String, input: Bool) throws(GraphQLSchemaError) {
        _ = advance()
        while !current.is("}") {
            skipDescription()
            let field = try name("a field's name")
            if !input, current.is("(") { try argumentDefinitions() }
            try expect(":", "and a type after the field's name")
            let type = try typeReference()
            if current.is("=") {
                _ = advance()
                try skipValue()
            }
            try directives()
            types[typeName]!.fields[field] = type
        }
        _ = advance()
    }

    mutating func argumentDefinitions() throws(GraphQLSchemaError) {
        _ = advance()
        while !current.is(")") {
            skipDescription()
            _ = try name("an argument's name")
            try expect(":", "and a type after the argument's name")
            _ = try typeReference()
            if current.is("=") {
                _ = advance()
                try skipValue()
            }
            try directives()
        }
        _ = advance()
    }

    mutating func typeReference() throws(GraphQLSchemaError) -> GraphQLTypeReference {
        var type: GraphQLTypeReference
        if current.is("[") {
            _ = advance()
            depth += 1
            if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) levels deep") }
            type = .list(try typeReference())
            depth -= 1
            try expect("]", "to close a list type")
        } else {
            let token = current
            let typeName = try name("a type")
            references.append((typeName, token))
            type = .named(typeName)
        }
        if current.is("!") {
            _ = advance()
            type = .nonNull(type)
        }
        return type
    }

    mutating func directives() throws(GraphQLSchemaError) {
        while current.is("@") {
            _ = advance()
            _ = try name("a directive's name")
            if current.is("(") {
                _ = advance()
                while !current.is(")") {
                    _ = try name("an argument's name")
                    try expect(":", "after an argument's name")
                    try skipValue()
                }
                _ = advance()
            }
        }
    }

    mutating func skipValue() throws(GraphQLSchemaError) {
        let token = current
        switch token.kind {
        case .int, .float, .name, .string:
            _ = advance()
        case .punctuator where token.text == "[" || token.text == "{":
            depth += 1
            if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) levels deep") }
            _ = advance()
            let close = token.text == "[" ? "]" : "}"
            while !current.is(close) {
                guard current.kind != .end else { throw error("expected '\(close)'") }
                if close == "}" {
                    _ = try name("an input field's name")
                    try expect(":", "after an input field's name")
                }
                try skipValue()
            }
            _ = advance()
            depth -= 1
        default:
            throw error("expected a value")
        }
    }

    /// Every type named is defined, and each is of a kind that can stand where it does.
    func checkReferences() throws(GraphQLSchemaError) {
        for (typeName, token) in references where types[typeName] == nil && !GraphQLSchema.builtInScalars.contains(typeName) {
            throw GraphQLSchemaError(message: "unknown type \(typeName): no definition in the schema", line: token.line, column: token.column)
        }
        for type in types.values.sorted(by: { ($0.line, $0.column) < ($1.line, $1.column) }) {
            for member in type.members where types[member]?.kind != .object {
                throw GraphQLSchemaError(message: "union \(type.name) lists \(member), which is not an object type", line: type.line, column: type.column)
            }
            for interface in type.interfaces where types[interface]?.kind != .interface {
                throw GraphQLSchemaError(message: "\(type.name) implements \(interface), which is not an interface", line: type.line, column: type.column)
            }
        }
        if roots["query"] == nil {
            throw GraphQLSchemaError(message: "the schema has no query type: define 'type Query { … }' or say 'schema { query: … }'", line: 1, column: 1)
        }
        for (operation, typeName) in roots where types[typeName]?.kind != .object {
            throw GraphQLSchemaError(message: "the \(operation) root \(typeName) is not an object type", line: 1, column: 1)
        }
    }
}
