package import StubdEngine

/// Every GraphQL route's answers held to a schema (`stubd check --graphql-schema`, `serve
/// --graphql-schema`): each problem a load problem at the stub file's line and column of the value
/// (or at the manifest route that holds the answer inline), with the field's path; all of them at once.
package struct StubGraphQLCheck: Sendable {
    package let problems: [LoadProblem]
    /// Answers not checked, or checked against the schema alone (no query), said once each.
    package let notices: [String]
    /// How many answers were held to the schema.
    package let checked: Int

    package init(catalog: StubCatalog, schema: GraphQLSchema) {
        var problems: [LoadProblem] = []
        var notices: [String] = []
        var listed: Set<LoadProblem> = []
        var checked = 0
        for route in catalog.routes {
            guard let match = route.conditions.graphQL, route.resource == nil else { continue }
            if case .runtime = route.source { continue }
            let (tree, operation) = Self.operation(of: match)
            if operation == nil {
                notices.append("\(route.signature) (\(route.source)) has no query: its answer is held to the schema alone "
                               + "(a field the query would select cannot be missed); give the route graphql.query to hold it to the selection set")
            }
            for (step, answer) in route.responses.enumerated() {
                if answer.fault != nil || answer.quotaStatus != nil || answer.events != nil || answer.webSocket != nil { continue }
                let place = route.responses.count > 1 ? " (answer \(step + 1) of \(route.responses.count))" : ""
                if answer.template != nil {
                    notices.append("\(route.signature) (\(route.source))\(place) is a template: its answers are not checked against the schema")
                    continue
                }
                for variant in [answer] + answer.alternatives where !variant.body.isEmpty {
                    checked += 1
                    for problem in Self.problems(of: variant, route: route, place: place, schema: schema, tree: tree, operation: operation)
                    where listed.insert(problem).inserted {
                        problems.append(problem)
                    }
                }
            }
        }
        self.problems = problems
        self.notices = notices
        self.checked = checked
    }

    /// The query's selection tree and the operation the route answers; nil, nil without a query.
    static func operation(of match: GraphQLMatch) -> (GraphQLSelectionTree?, GraphQLSelectionTree.Operation?) {
        // The manifest has read the query already (a broken one is a load problem before this runs).
        guard let text = match.queryText, let tree = try? GraphQLSelectionTree(parsing: text) else { return (nil, nil) }
        return (tree, tree.operation(named: match.operationName))
    }

    static func problems(of answer: CannedResponse, route: Route, place: String, schema: GraphQLSchema,
                         tree: GraphQLSelectionTree?, operation: GraphQLSelectionTree.Operation?) -> [LoadProblem] {
        let label = "\(route.key)\(place)"
        let body: JSONValue
        do {
            body = try JSONParser.parse(answer.body)
        } catch {
            return [StubContractCheck.problem(answer, route, pointer: nil, message: "\(label): a GraphQL answer is JSON, and this one is not (\(error))",
                                              hint: #"{"data": {…}}"#)]
        }
        return GraphQLAnswerCheck.violations(of: body, schema: schema, tree: tree, operation: operation).map { violation in
            StubContractCheck.problem(answer, route, pointer: violation.pointer, message: "\(label): \(violation.path): \(violation.message)",
                                      hint: violation.hint)
        }
    }
}
