/// What a manifest route asks of a request beyond its method and path.
package struct RequestConditions: Sendable, Hashable {
    package enum Value: Sendable, Hashable, CustomStringConvertible {
        case equals(String)
        /// `[London, "London,GB"]`: equal to any one of these.
        case oneOf([String])
        /// `"*"`: present with any value.
        case present

        func accepts(_ value: String) -> Bool {
            switch self {
            case .equals(let want): return value == want
            case .oneOf(let wants): return wants.contains(value)
            case .present: return true
            }
        }

        package var description: String {
            switch self {
            case .equals(let want): return "'\(want)'"
            case .oneOf(let wants): return "one of " + wants.map { "'\($0)'" }.joined(separator: ", ")
            case .present: return "present"
            }
        }
    }
    package enum Body: Sendable, Hashable {
        /// The body parses as JSON equal to this value (key order and whitespace do not matter).
        case json(JSONValue)
        /// The body contains this text.
        case contains(String)
    }

    /// `appid: "*"`, `accept: application/json`: a name and what its value must be.
    package struct Condition: Sendable, Hashable {
        package var name: String
        package var value: Value

        package init(name: String, value: Value) {
            self.name = name
            self.value = value
        }
    }

    package var query: [Condition] = []
    /// `queryNames: any-case`: `APPID` satisfies `appid`, as OpenWeatherMap allows. Names in `query`
    /// are then stored lower-cased. Values are always compared exactly.
    package var queryNamesIgnoreCase = false
    /// Header names are stored lower-cased: HTTP compares them case-insensitively.
    package var headers: [Condition] = []
    package var body: Body?
    /// `graphql:`: the operation, query shape and variables of a GraphQL request (see `GraphQLMatch`).
    package var graphQL: GraphQLMatch?

    package init() {}

    package var isEmpty: Bool { query.isEmpty && headers.isEmpty && body == nil && graphQL == nil }
}
