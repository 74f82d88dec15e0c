/// A GraphQL executable document read into its operations' selection sets and its fragments: what
/// `stubd check --graphql-schema` holds a stub's answer to (the answer's keys are the fields' aliases
/// or names; a fragment applies by the `__typename` of the value it is spread in). Matching reads the
/// same text into a shape instead (`GraphQLDocument`).
package struct GraphQLSelectionTree: Sendable {
    package struct Operation: Sendable {
        /// `query`, `mutation` or `subscription`.
        package let type: String
        package let name: String?
        package let selections: [GraphQLSelection]
        /// `($city: String!, $days: Int = 3)`: what a request must send in `variables`.
        package var variables: [VariableDefinition] = []
    }

    /// One of an operation's variable definitions.
    package struct VariableDefinition: Sendable, Equatable {
        package let name: String
        package let type: GraphQLTypeReference
        /// `= 3`: a request may leave it out even when its type is non-null.
        package let hasDefault: Bool
    }

    package struct Fragment: Sendable {
        package let typeCondition: String
        package let selections: [GraphQLSelection]
    }

    package let operations: [Operation]
    package let fragments: [String: Fragment]

    package init(parsing text: String) throws(GraphQLSyntaxError) {
        var reader = Reader(tokens: try GraphQLLexer.tokens(text))
        (operations, fragments) = try reader.document()
    }

    /// The operation a request runs (spec §6.1, GetOperation), as `GraphQLDocument.operation(named:)`.
    package func operation(named operationName: String?) -> Operation? {
        if let operationName { return operations.first { $0.name == operationName } }
        return operations.count == 1 ? operations[0] : nil
    }

    /// Reads selections, fragments and operations; arguments, variables and directives' values are
    /// read past (`GraphQLDocument` has already refused a document that does not parse).
    private struct Reader {
        let tokens: [GraphQLToken]
        var index = 0
        static let maximumDepth = 128
        var depth = 0

        var current: GraphQLToken { tokens[index] }

        mutating func advance() -> GraphQLToken {
            let token = tokens[index]
            if index < tokens.count - 1 { index += 1 }
            return token
        }

        func error(_ message: String) -> GraphQLSyntaxError {
            GraphQLSyntaxError(message: message, line: current.line, column: current.column)
        }

        mutating func name(_ what: String) throws(GraphQLSyntaxError) -> String {
            guard current.kind == .name else { throw error("expected \(what)") }
            return advance().text
        }

        mutating func document() throws(GraphQLSyntaxError) -> ([Operation], [String: Fragment]) {
            var operations: [Operation] = []
            var fragments: [String: Fragment] = [:]
            while current.kind != .end {
                if current.is("{") {
                    operations.append(Operation(type: "query", name: nil, selections: try selectionSet()))
                    continue
                }
                let keyword = try name("an operation or a fragment")
                if keyword == "fragment" {
                    let fragmentName = try name("a fragment's name")
                    _ = try name("'on'")
                    let type = try name("the type the fragment is on")
                    _ = try directives()
                    fragments[fragmentName] = Fragment(typeCondition: type, selections: try selectionSet())
                    continue
                }
                var operationName: String?
                if current.kind == .name { operationName = advance().text }
                let variables = current.is("(") ? try variableDefinitions() : []
                _ = try directives()
                operations.append(Operation(type: keyword, name: operationName, selections: try selectionSet(), variables: variables))
            }
            return (operations, fragments)
        }

        mutating func selectionSet() throws(GraphQLSyntaxError) -> [GraphQLSelection] {
            depth += 1
            if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) levels deep") }
            guard current.is("{") else { throw error("expected '{'") }
            _ = advance()
            var selections: [GraphQLSelection] = []
            while !current.is("}") {
                guard current.kind != .end else { throw error("expected '}'") }
                selections.append(try selection())
            }
            _ = advance()
            depth -= 1
            return selections
        }

        mutating func selection() throws(GraphQLSyntaxError) -> GraphQLSelection {
            if current.is("...") {
                _ = advance()
                if current.kind == .name, current.text != "on" {
                    let fragmentName = advance().text
                    return .fragmentSpread(name: fragmentName, conditional: try directives())
                }
                var typeCondition: String?
                if current.kind == .name {
                    _ = advance()
                    typeCondition = try name("the type an inline fragment is on")
                }
                let conditional = try directives()
                return .inlineFragment(typeCondition: typeCondition, selections: try selectionSet(), conditional: conditional)
            }
            var alias: String?
            let (line, column) = (current.line, current.column)
            var fieldName = try name("a field")
            if current.is(":") {
                _ = advance()
                alias = fieldName
                fieldName = try name("a field after its alias")
            }
            if current.is("(") { try skipParenthesised() }
            let conditional = try directives()
            let selections = current.is("{") ? try selectionSet() : []
            return .field(alias: alias, name: fieldName, selections: selections, conditional: conditional, line: line, column: column)
        }

        /// `($name: Type = default @directive, …)`; a default's value and directives are read past.
        mutating func variableDefinitions() throws(GraphQLSyntaxError) -> [VariableDefinition] {
            _ = advance()
            var definitions: [VariableDefinition] = []
            while !current.is(")") {
                guard current.is("$") else { throw error("expected a variable ($name)") }
                _ = advance()
                let variable = try name("a variable's name")
                guard current.is(":") else { throw error("expected ':' after $\(variable)") }
                _ = advance()
                let type = try typeReference()
                var hasDefault = false
                if current.is("=") {
                    _ = advance()
                    hasDefault = true
                    try skipValue()
                }
                _ = try directives()
                definitions.append(VariableDefinition(name: variable, type: type, hasDefault: hasDefault))
            }
            _ = advance()
            return definitions
        }

        /// `Type`, `[Type]`, `Type!`.
        mutating func typeReference() throws(GraphQLSyntaxError) -> GraphQLTypeReference {
            var type: GraphQLTypeReference
            if current.is("[") {
                _ = advance()
                type = .list(try typeReference())
                guard current.is("]") else { throw error("expected ']'") }
                _ = advance()
            } else {
                type = .named(try name("a type"))
            }
            if current.is("!") {
                _ = advance()
                type = .nonNull(type)
            }
            return type
        }

        /// One value (a default): a scalar token, or a balanced list or object.
        mutating func skipValue() throws(GraphQLSyntaxError) {
            guard current.is("[") || current.is("{") else {
                guard current.kind != .end else { throw error("expected a value") }
                if current.is("$") { _ = advance() }
                _ = advance()
                return
            }
            var open = 0
            repeat {
                let token = advance()
                guard token.kind != .end else { throw error("expected the value to end") }
                if token.kind == .punctuator {
                    if ["[", "{"].contains(token.text) { open += 1 }
                    if ["]", "}"].contains(token.text) { open -= 1 }
                }
            } while open > 0
        }

        /// Reads past directives; true when one is `@skip` or `@include` (the selection may be left out).
        mutating func directives() throws(GraphQLSyntaxError) -> Bool {
            var conditional = false
            while current.is("@") {
                _ = advance()
                let directive = try name("a directive's name")
                if directive == "skip" || directive == "include" { conditional = true }
                if current.is("(") { try skipParenthesised() }
            }
            return conditional
        }

        /// Arguments or variable definitions: balanced brackets read past.
        mutating func skipParenthesised() throws(GraphQLSyntaxError) {
            var open = 0
            repeat {
                let token = advance()
                guard token.kind != .end else { throw error("expected ')'") }
                if token.kind == .punctuator {
                    if ["(", "[", "{"].contains(token.text) { open += 1 }
                    if [")", "]", "}"].contains(token.text) { open -= 1 }
                }
            } while open > 0
        }
    }
}
