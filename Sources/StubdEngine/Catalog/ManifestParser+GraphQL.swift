import Yams

extension ManifestParser {
    /// A route's `graphql:` (under `request:`): which GraphQL operation it answers.
    ///
    /// ```yaml
    /// graphql:
    ///   operationName: GetWeather        # the operation's name
    ///   query: |                         # compared by shape: spacing, comments, commas, field order do not matter
    ///     query GetWeather($city: String!) { weather(city: $city) { tempC } }
    ///   variables: { city: Paris }       # equal, unless variablesMatch: subset
    ///   variablesMatch: subset
    /// ```
    mutating func graphQLMatch(_ node: Node) -> GraphQLMatch? {
        guard let map = mapping(node, "graphql") else { return nil }
        checkKeys(map, ["operationName", "query", "variables", "variablesMatch"], in: "graphql")
        var match = GraphQLMatch()
        let problemsBefore = problems.items.count
        if let n = map["operationName"], let name = string(n, "operationName") {
            if name.unicodeScalars.first.map(GraphQLLexer.isNameStart) == true, name.unicodeScalars.allSatisfy(GraphQLLexer.isNameContinue) {
                match.operationName = name
            } else {
                add(n, "'\(name)' is not a GraphQL operation name", hint: "a name is letters, digits and _, not starting with a digit (GetWeather)")
            }
        }
        if let q = map["query"], let text = string(q, "query") {
            do {
                let document = try GraphQLDocument(parsing: text)
                match.document = document
                match.queryText = text
                if let name = match.operationName, document.operation(named: name) == nil {
                    let names = document.operations.compactMap(\.name)
                    add(q, "the query has no operation named \(name)",
                        hint: names.isEmpty ? "name the query's operation: query \(name) { … }" : "its operations: " + names.joined(separator: ", "))
                } else if match.operationName == nil, document.operations.count > 1 {
                    add(q, "the query has several operations; say which one this route answers",
                        hint: "operationName: " + (document.operations.first?.name ?? "…"))
                }
            } catch {
                let (line, column) = source.place(line: error.line, column: error.column, inValueOf: q)
                problems.add(file, line: line, column: column, "the GraphQL query does not parse: \(error.message)",
                             hint: "fix the query (query line \(error.line), column \(error.column)); the GraphQL spec's grammar is at https://spec.graphql.org/October2021/#sec-Document")
            }
        }
        if let v = map["variables"] {
            let value = json(v)
            if case .object = value { match.variables = value } else { add(v, "'variables' must be a mapping of names to values", hint: "variables: { city: Paris }") }
        }
        if let m = map["variablesMatch"], let text = string(m, "variablesMatch") {
            if let how = GraphQLMatch.VariablesMatch(rawValue: text) { match.variablesMatch = how } else {
                add(m, "unknown variablesMatch '\(text)'", hint: "equal (the default) or subset")
            }
            if map["variables"] == nil { add(m, "'variablesMatch' without 'variables' checks nothing", hint: "add variables: { … }") }
        }
        if match.operationName == nil, match.document == nil, match.variables == nil, problems.items.count == problemsBefore {
            add(node, "'graphql' needs an operationName, a query or variables", hint: "graphql: { operationName: GetWeather }")
        }
        return match
    }
}
