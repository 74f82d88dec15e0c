import StubdEngine

/// Why recording cannot start or go on.
package struct RecorderError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
