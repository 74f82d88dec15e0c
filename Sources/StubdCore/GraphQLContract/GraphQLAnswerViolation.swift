/// One way a GraphQL answer breaks its schema or the query it answers: the JSON pointer of the value
/// (where `JSONTextPosition` finds it in the stub file), the field's path as a GraphQL user reads it
/// (`data.weather.forecast[2].temp`), and what is wrong.
package struct GraphQLAnswerViolation: Sendable, Hashable, CustomStringConvertible {
    package let pointer: String
    package let path: String
    package let message: String
    package let hint: String?

    package var description: String { "\(path): \(message)" }
}
