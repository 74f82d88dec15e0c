/// A GraphQL executable document (operations and fragments) read into what matching compares:
/// its **shape**, a canonical text in which white space, comments, commas, the order of the
/// definitions and the order of the fields and arguments inside a selection set (and of an input
/// object's fields) do not show, and `"a"` and `"""a"""` read alike; and its operations' names.
/// Two documents with the same shape ask the same thing of a server.
///
/// Not a validator: a field the schema does not have reads as well as one it has (that is the
/// schema check's job, issue 63's next slice). A document that is not GraphQL throws, with the line
/// and column where reading stopped.
package struct GraphQLDocument: Sendable, Hashable {
    package struct Operation: Sendable, Hashable {
        /// `query`, `mutation` or `subscription` (`{ … }` alone is a query).
        package let type: String
        package let name: String?
    }

    package let shape: String
    package let operations: [Operation]

    package init(parsing text: String) throws(GraphQLSyntaxError) {
        var reader = Reader(tokens: try GraphQLLexer.tokens(text))
        (shape, operations) = try reader.document()
    }

    /// The operation a request runs: the one named `operationName`, or the only one (spec §6.1,
    /// GetOperation). Nil when the name is given and no operation has it, or none is given and the
    /// document has several.
    package func operation(named operationName: String?) -> Operation? {
        if let operationName { return operations.first { $0.name == operationName } }
        return operations.count == 1 ? operations[0] : nil
    }

    /// A recursive-descent reader over the tokens, writing the shape as it goes.
    private struct Reader {
        let tokens: [GraphQLToken]
        var index = 0
        /// Nesting (selection sets, lists, objects) past which a document is refused: the reader
        /// recurses, and a hostile `{{{{…` must not take the thread's stack.
        static let maximumDepth = 128
        var depth = 0

        var current: GraphQLToken { tokens[index] }

        mutating func advance() -> GraphQLToken {
            let token = tokens[index]
            if index < tokens.count - 1 { index += 1 }
            return token
        }

        func error(_ message: String, at token: GraphQLToken? = nil) -> GraphQLSyntaxError {
            let token = token ?? current
            let found = token.kind == .end ? "the end of the document" : "'\(token.text)'"
            return GraphQLSyntaxError(message: "\(message), found \(found)", line: token.line, column: token.column)
        }

        mutating func expect(_ punctuator: String, _ what: String) throws(GraphQLSyntaxError) {
            guard current.is(punctuator) else { throw error("expected '\(punctuator)' \(what)") }
            _ = advance()
        }

        mutating func name(_ what: String) throws(GraphQLSyntaxError) -> String {
            guard current.kind == .name else { throw error("expected \(what)") }
            return advance().text
        }

        mutating func deeper() throws(GraphQLSyntaxError) {
            depth += 1
            if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) levels deep") }
        }

        mutating func document() throws(GraphQLSyntaxError) -> (String, [Operation]) {
            var definitions: [String] = []
            var operations: [Operation] = []
            var fragments = Set<String>()
            guard current.kind != .end else { throw error("a document needs at least one operation") }
            while current.kind != .end {
                if current.is("{") {
                    operations.append(Operation(type: "query", name: nil))
                    definitions.append("query" + (try selectionSet()))
                    continue
                }
                let start = current
                let keyword = try name("an operation (query, mutation, subscription) or a fragment")
                switch keyword {
                case "query", "mutation", "subscription":
                    var text = keyword
                    var operationName: String?
                    if current.kind == .name {
                        operationName = advance().text
                        text += " " + operationName!
                    }
                    if current.is("(") { text += try variableDefinitions() }
                    text += try directives(const: false)
                    text += try selectionSet()
                    operations.append(Operation(type: keyword, name: operationName))
                    definitions.append(text)
                case "fragment":
                    let fragmentName = try name("a fragment's name")
                    guard fragmentName != "on" else { throw error("a fragment cannot be named 'on'", at: tokens[index - 1]) }
                    guard fragments.insert(fragmentName).inserted else {
                        throw error("fragment \(fragmentName) is defined twice", at: tokens[index - 1])
                    }
                    guard current.kind == .name, current.text == "on" else { throw error("expected 'on' and a type after the fragment's name") }
                    _ = advance()
                    let type = try name("the type the fragment is on")
                    definitions.append("fragment \(fragmentName) on \(type)" + (try directives(const: false)) + (try selectionSet()))
                default:
                    throw error("expected an operation (query, mutation, subscription) or a fragment", at: start)
                }
            }
            let named = operations.compactMap(\.name)
            if operations.count > 1, named.count < operations.count {
                throw GraphQLSyntaxError(message: "a document with several operations must name each of them", line: 1, column: 1)
            }
            if Set(named).count < named.count {
                throw GraphQLSyntaxError(message: "two operations share a name", line: 1, column: 1)
            }
            return (definitions.sorted().joined(separator: " "), operations)
        }

        mutating func variableDefinitions() throws(GraphQLSyntaxError) -> String {
            _ = advance()
            var definitions: [String] = []
            while !current.is(")") {
                try expect("$", "before a variable's name")
                var text = "$" + (try name("a variable's name"))
                try expect(":", "and a type after a variable")
                text += ":" + (try type())
                if current.is("=") {
                    _ = advance()
                    text += "=" + (try value(const: true))
                }
                text += try directives(const: true)
                definitions.append(text)
            }
            guard !definitions.isEmpty else { throw error("'()' needs at least one variable") }
            _ = advance()
            return "(" + definitions.sorted().joined(separator: ",") + ")"
        }

        mutating func type() throws(GraphQLSyntaxError) -> String {
            var text: String
            if current.is("[") {
                try deeper()
                _ = advance()
                text = "[" + (try type()) + "]"
                depth -= 1
                try expect("]", "to close a list type")
            } else {
                text = try name("a type")
            }
            if current.is("!") {
                _ = advance()
                text += "!"
            }
            return text
        }

        mutating func selectionSet() throws(GraphQLSyntaxError) -> String {
            try deeper()
            try expect("{", "to open a selection set")
            var selections: [String] = []
            while !current.is("}") {
                selections.append(try selection())
            }
            guard !selections.isEmpty else { throw error("a selection set needs at least one field") }
            _ = advance()
            depth -= 1
            return "{" + selections.sorted().joined(separator: " ") + "}"
        }

        mutating func selection() throws(GraphQLSyntaxError) -> String {
            if current.is("...") {
                _ = advance()
                if current.kind == .name, current.text != "on" {
                    return "..." + advance().text + (try directives(const: false))
                }
                var text = "..."
                if current.kind == .name {
                    _ = advance()
                    text += "on " + (try name("the type an inline fragment is on"))
                }
                text += try directives(const: false)
                return text + (try selectionSet())
            }
            var text = try name("a field")
            if current.is(":") {
                _ = advance()
                text += ":" + (try name("a field after its alias"))
            }
            if current.is("(") { text += try arguments(const: false) }
            text += try directives(const: false)
            if current.is("{") { text += try selectionSet() }
            return text
        }

        mutating func arguments(const: Bool) throws(GraphQLSyntaxError) -> String {
            _ = advance()
            var arguments: [String] = []
            var names = Set<String>()
            while !current.is(")") {
                let argument = current
                let argumentName = try name("an argument's name")
                guard names.insert(argumentName).inserted else { throw error("argument \(argumentName) is given twice", at: argument) }
                try expect(":", "after an argument's name")
                arguments.append(argumentName + ":" + (try value(const: const)))
            }
            guard !arguments.isEmpty else { throw error("'()' needs at least one argument") }
            _ = advance()
            return "(" + arguments.sorted().joined(separator: ",") + ")"
        }

        mutating func directives(const: Bool) throws(GraphQLSyntaxError) -> String {
            var text = ""
            while current.is("@") {
                _ = advance()
                text += "@" + (try name("a directive's name"))
                if current.is("(") { text += try arguments(const: const) }
            }
            return text
        }

        mutating func value(const: Bool) throws(GraphQLSyntaxError) -> String {
            let token = current
            switch token.kind {
            case .int, .float, .name:
                _ = advance()
                return token.text
            case .string:
                _ = advance()
                var out = ""
                JSONValue.writeString(token.text, to: &out)
                return out
            case .punctuator where token.text == "$":
                guard !const else { throw error("a variable cannot stand here (a default value is a constant)") }
                _ = advance()
                return "$" + (try name("a variable's name"))
            case .punctuator where token.text == "[":
                try deeper()
                _ = advance()
                var items: [String] = []
                while !current.is("]") {
                    guard current.kind != .end else { throw error("expected ']' to close a list") }
                    items.append(try value(const: const))
                }
                _ = advance()
                depth -= 1
                return "[" + items.joined(separator: ",") + "]"
            case .punctuator where token.text == "{":
                try deeper()
                _ = advance()
                var fields: [String] = []
                while !current.is("}") {
                    let fieldName = try name("an input field's name")
                    try expect(":", "after an input field's name")
                    fields.append(fieldName + ":" + (try value(const: const)))
                }
                _ = advance()
                depth -= 1
                return "{" + fields.sorted().joined(separator: ",") + "}"
            default:
                throw error("expected a value")
            }
        }
    }
}
