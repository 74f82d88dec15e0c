import HTTPTypes

/// A GraphQL request held to the schema before any route is asked (`serve --graphql-schema`): the
/// checks a real server makes first, in graphql-js's words so a client's error handling sees what it
/// would see in production. Validation (a field the type does not have, a leaf with a selection, an
/// object without one, a fragment or type the document does not define) comes first; only a valid
/// document has its variables looked at (a required one missing or null), as graphql-js does.
package enum GraphQLRequestValidation {
    /// One error of the `errors` envelope.
    package struct Problem: Sendable, Equatable, CustomStringConvertible {
        package let message: String
        /// Where in the query, from 1; nil for a variable's problem (graphql-js gives the definition's
        /// place, which a client never shows).
        package let line: Int?
        package let column: Int?
        /// `GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED`, `BAD_USER_INPUT`: Apollo Server's codes.
        package let code: String

        package var description: String {
            line.map { "\(message) (line \($0), column \(column ?? 0))" } ?? message
        }
    }

    /// Every problem of `query` against `schema`, for the operation `operationName` picks; empty when a
    /// server would run it. An operation the document does not have is left to matching to say.
    package static func problems(query: String, operationName: String?, variables: JSONValue,
                                 schema: GraphQLSchema) -> [Problem] {
        let tree: GraphQLSelectionTree
        do { tree = try GraphQLSelectionTree(parsing: query) } catch {
            return [Problem(message: "Syntax Error: \(error.message)", line: error.line, column: error.column, code: "GRAPHQL_PARSE_FAILED")]
        }
        guard let operation = tree.operation(named: operationName) else { return [] }
        guard let root = schema.root(operation.type) else {
            return [Problem(message: "Schema is not configured to execute \(operation.type) operation.", line: nil, column: nil,
                            code: "GRAPHQL_VALIDATION_FAILED")]
        }
        var walk = Walk(schema: schema, fragments: tree.fragments)
        walk.check(operation.selections, on: root, isRoot: true)
        if !walk.problems.isEmpty { return walk.problems }
        return variableProblems(operation.variables, variables)
    }

    /// A non-null variable without a default must be sent, and not as null.
    static func variableProblems(_ definitions: [GraphQLSelectionTree.VariableDefinition], _ variables: JSONValue) -> [Problem] {
        guard case .object(let sent) = variables else { return [] }
        var problems: [Problem] = []
        for definition in definitions {
            guard case .nonNull = definition.type, !definition.hasDefault else { continue }
            switch sent[definition.name] {
            case nil:
                problems.append(Problem(message: "Variable \"$\(definition.name)\" of required type \"\(definition.type)\" was not provided.",
                                        line: nil, column: nil, code: "BAD_USER_INPUT"))
            case .null?:
                problems.append(Problem(message: "Variable \"$\(definition.name)\" of non-null type \"\(definition.type)\" must not be null.",
                                        line: nil, column: nil, code: "BAD_USER_INPUT"))
            default: continue
            }
        }
        return problems
    }

    /// The selection sets walked against the types they are asked of.
    struct Walk {
        let schema: GraphQLSchema
        let fragments: [String: GraphQLSelectionTree.Fragment]
        var problems: [Problem] = []
        /// Fragments being walked, so one that spreads itself ends.
        var expanding: Set<String> = []
        var unknownFragments: Set<String> = []

        mutating func check(_ selections: [GraphQLSelection], on type: GraphQLSchemaType, isRoot: Bool = false) {
            for selection in selections {
                switch selection {
                case .field(_, let name, let children, _, let line, let column):
                    field(name, children, on: type, isRoot: isRoot, line: line, column: column)
                case .fragmentSpread(let name, _):
                    guard let fragment = fragments[name] else {
                        if unknownFragments.insert(name).inserted {
                            problems.append(Problem(message: "Unknown fragment \"\(name)\".", line: nil, column: nil, code: "GRAPHQL_VALIDATION_FAILED"))
                        }
                        continue
                    }
                    guard expanding.insert(name).inserted else { continue }
                    fragmentBody(fragment.typeCondition, fragment.selections, on: type)
                    expanding.remove(name)
                case .inlineFragment(let condition, let children, _):
                    fragmentBody(condition, children, on: type)
                }
            }
        }

        mutating func fragmentBody(_ condition: String?, _ selections: [GraphQLSelection], on type: GraphQLSchemaType) {
            guard let condition else { return check(selections, on: type) }
            guard let conditionType = schema.types[condition] else {
                problems.append(Problem(message: "Unknown type \"\(condition)\".", line: nil, column: nil, code: "GRAPHQL_VALIDATION_FAILED"))
                return
            }
            check(selections, on: conditionType)
        }

        mutating func field(_ name: String, _ children: [GraphQLSelection], on type: GraphQLSchemaType, isRoot: Bool, line: Int, column: Int) {
            // Introspection: `__typename` anywhere, `__schema` and `__type` on the query root; what
            // they select is the introspection schema's, which a stub server does not hold.
            if name == "__typename" || (isRoot && (name == "__schema" || name == "__type")) { return }
            guard let fieldType = type.fields[name] else {
                problems.append(Problem(message: "Cannot query field \"\(name)\" on type \"\(type.name)\".", line: line, column: column,
                                        code: "GRAPHQL_VALIDATION_FAILED"))
                return
            }
            guard let named = schema.types[fieldType.namedType] else {
                // A built-in scalar (the schema's own types do not list them).
                if !children.isEmpty {
                    problems.append(leafWithSelection(name, fieldType, line, column))
                }
                return
            }
            switch named.kind {
            case .object, .interface, .union:
                if children.isEmpty {
                    problems.append(Problem(message: "Field \"\(name)\" of type \"\(fieldType)\" must have a selection of subfields. Did you mean \"\(name) { ... }\"?",
                                            line: line, column: column, code: "GRAPHQL_VALIDATION_FAILED"))
                } else {
                    check(children, on: named)
                }
            case .scalar, .enum, .inputObject:
                if !children.isEmpty { problems.append(leafWithSelection(name, fieldType, line, column)) }
            }
        }

        func leafWithSelection(_ name: String, _ type: GraphQLTypeReference, _ line: Int, _ column: Int) -> Problem {
            Problem(message: "Field \"\(name)\" must not have a selection since type \"\(type)\" has no subfields.", line: line, column: column,
                    code: "GRAPHQL_VALIDATION_FAILED")
        }
    }

    /// The envelope a server answers: Apollo Server answers 400 for a document that does not parse
    /// or validate, and (Apollo Server 5's default; 4's with `status400ForVariableCoercionErrors`) for
    /// a required variable missing.
    package static func answer(_ problems: [Problem]) -> GeneratedResponse {
        let errors: [JSONValue] = problems.map { problem in
            var error: [String: JSONValue] = ["message": .string(problem.message), "extensions": .object(["code": .string(problem.code)])]
            if let line = problem.line, let column = problem.column {
                error["locations"] = .array([.object(["line": .number(Double(line)), "column": .number(Double(column))])])
            }
            return .object(error)
        }
        return GeneratedResponse.json(.badRequest, .object(["errors": .array(errors)]))
    }
}
