/// Why a GraphQL document could not be read, and where (1-based, in the document's own text).
package struct GraphQLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    package let message: String
    package let line: Int
    package let column: Int

    package var description: String { "\(message) at line \(line), column \(column)" }
}
