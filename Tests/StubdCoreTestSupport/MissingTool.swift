import Foundation

/// A program or module a test needs is not installed. The test fails with this, naming the one
/// command that installs everything the tests use: nothing is skipped for want of a tool.
public struct MissingTool: Error, CustomStringConvertible {
    /// The program's path, or the Python module and the Python it was looked for in.
    public let what: String

    public init(_ what: String) { self.what = what }

    public var description: String { "\(what) is missing: run scripts/setup (it installs every tool the tests use)" }
}
