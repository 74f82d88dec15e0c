/// Where a JSON document stopped making sense.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    package let line: Int
    package let column: Int
    package let message: String
}
