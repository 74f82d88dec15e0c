/// One problem in an `.sse` file, at a 1-based line and column of it.
package struct EventStreamSyntaxError: Error, Sendable, Hashable {
    package let line: Int
    package let column: Int
    package let message: String
    package let hint: String?
}
