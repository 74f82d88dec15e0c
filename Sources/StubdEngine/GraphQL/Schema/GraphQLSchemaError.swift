/// Why a schema could not be read, and where (1-based, in the schema's own text): a syntax error,
/// or a definition that does not hold together (a field of a type no one defines, a union of an enum).
package struct GraphQLSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    package let message: String
    package let line: Int
    package let column: Int

    package init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    package init(_ syntax: GraphQLSyntaxError) {
        self.init(message: syntax.message, line: syntax.line, column: syntax.column)
    }

    package var description: String { "\(line):\(column): \(message)" }
}
