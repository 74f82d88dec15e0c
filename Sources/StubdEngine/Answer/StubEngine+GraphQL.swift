import Foundation

extension StubEngine {
    /// A request on a path where GraphQL routes listen: read as GraphQL once (so a thousand
    /// operations' routes compare names and shapes, not a thousand parses of the body), a persisted
    /// query's hash resolved (Apollo's automatic persisted queries), then matched as any request.
    func respondGraphQL(to request: RequestHead, _ endpoints: GraphQLEndpoints, in session: SessionState, catalog: StubCatalog?,
                        passingMisses: Bool, contractProblems: [String]?) -> Outcome? {
        var read = GraphQLRequest.read(request)
        if let hash = read.persistedHash {
            if let query = read.query {
                guard SHA256.hex(query) == hash else {
                    // `serve --proxy`: the real server says what it says of it.
                    if passingMisses { return nil }
                    return journaledGraphQL(GraphQLAnswers.hashMismatch, request, in: session,
                                            note: "the persisted query's hash \(hash) is not the SHA-256 of the query sent")
                }
                session.persistedQueries.register(query, hash: hash)
            } else if let query = session.persistedQueries.query(for: hash) ?? endpoints.persistedQueries[hash] {
                read = read.resolving(query: query)
            } else {
                // `serve --proxy`: a hash no stub knows may be one the real server knows.
                if passingMisses { return nil }
                return journaledGraphQL(GraphQLAnswers.persistedQueryNotFound, request, in: session,
                                        note: "persisted query \(hash) unknown: no route's query has this hash and no request of this session registered it")
            }
        }
        var contractProblems = contractProblems
        if let schema = graphQLSchema, contractRequests != "off", let query = read.query {
            let problems = GraphQLRequestValidation.problems(query: query, operationName: read.operationName, variables: read.variables,
                                                             schema: schema)
            if !problems.isEmpty {
                let said = problems.map { "GraphQL schema: \($0)" }
                // Strict: the envelope a real server answers, before any route; report: the route's
                // answer, with the problems in the journal, the log line and a response header.
                if contractRequests == "strict" {
                    return journaledGraphQL(GraphQLRequestValidation.answer(problems), request, in: session, note: said.joined(separator: "; "))
                }
                contractProblems = (contractProblems ?? []) + said
            }
        }
        var annotated = request
        annotated.graphQL = read
        return respond(to: annotated, in: session, catalog: catalog, passingMisses: passingMisses, contractProblems: contractProblems)
    }

    private func journaledGraphQL(_ answer: GeneratedResponse, _ request: RequestHead, in session: SessionState, note: String) -> Outcome {
        let wall = Date()
        let outcome = Outcome(answer: .generated(answer), route: nil, notes: [note])
        return journaled(outcome, request, route: nil, misses: [], in: session, at: wall)
    }
}
