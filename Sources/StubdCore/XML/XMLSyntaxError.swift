import StubdEngine

/// Where an XML document stopped being one stubd reads, and why.
package struct XMLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let message: String

    package var description: String { "\(message) at line \(line), column \(column)" }
}
