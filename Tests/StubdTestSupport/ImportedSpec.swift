public import Foundation

/// `stubd openapi import` of a spec's text into a fresh folder: what the import suites wrote again
/// before it was one type. The folder is not created beforehand, so a test sees whether the import
/// wrote it at all.
public struct ImportedSpec {
    /// The spec, written to a temporary folder of its own.
    public let spec: URL
    /// The folder the import was asked to write (`Stubs` in another temporary folder).
    public let stubs: URL
    /// `stubd openapi import`'s exit status, standard output and standard error.
    public let status: Int32
    public let output: String
    public let error: String

    public init(_ text: String, specFile: String = "spec.yaml", _ arguments: [String] = []) throws {
        spec = try TempStubs([specFile: text]).url.appendingPathComponent(specFile)
        stubs = try TempStubs([:]).url.appendingPathComponent("Stubs")
        (status, output, error) = try run(stubdBinary.path, ["openapi", "import", spec.path, "--stubs", stubs.path] + arguments)
    }
}
