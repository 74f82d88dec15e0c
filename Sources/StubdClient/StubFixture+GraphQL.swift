import StubdProtocol

extension StubFixture {
    /// The readable mismatch when the GraphQL operation `operation` was not called exactly `expected`
    /// times (with variables including `variables`, JSON text such as `{"city":"Paris"}`, objects
    /// member by member, when given), naming the
    /// operations that were called: `Expected GraphQL operation GetWeather {"city":"Paris"} called 2
    /// times, but it was called 1 time; operations called: GetWeather {"city":"Paris"} ×1, Search ×2`.
    /// Read from the session's journal (`GET /__stubd/requests`), so it counts what the journal still
    /// holds (its newest 1000 requests by default); nil when it matches.
    public static func operationMismatch(_ control: any StubControl, _ operation: String, expected: Int,
                                         variables: String? = nil) async throws -> String? {
        let variables = try variables.map { text throws(EmbeddedJSON.Invalid) in try EmbeddedJSON(parsing: text) }
        let journal = try await control.adminClient.requests(limit: 1_000_000)
        let calls = journal.requests.compactMap(\.graphQL)
        let actual = calls.filter { $0.operationName == operation && (variables.map($0.variablesInclude) ?? true) }.count
        guard actual != expected else { return nil }
        let wanted = variables.map { GraphQLCall(operationName: operation, variables: $0).description } ?? operation
        var message = "Expected GraphQL operation \(wanted) called \(times(expected)), but it was called \(times(actual))"
        if calls.isEmpty {
            message += "; no GraphQL operation was called (\(journal.requests.count) requests journaled)"
        } else {
            var counts: [(call: String, count: Int)] = []
            for call in calls.map(\.description) {
                if let i = counts.firstIndex(where: { $0.call == call }) { counts[i].count += 1 } else { counts.append((call, 1)) }
            }
            message += "; operations called: " + counts.map { "\($0.call) ×\($0.count)" }.joined(separator: ", ")
        }
        if journal.total > journal.requests.count {
            message += " (the journal holds the newest \(journal.requests.count) of \(journal.total) requests)"
        }
        return message
    }

    private static func times(_ n: Int) -> String { n == 1 ? "1 time" : "\(n) times" }
}
