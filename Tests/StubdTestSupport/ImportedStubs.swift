public import Foundation
public import Testing

/// `stubd import KIND SOURCE` of a good input into a fresh folder, expected to succeed and to write
/// what `stubd check` accepts: the set-up each import test of a good file wrote again.
public struct ImportedStubs {
    /// The folder the import wrote (`Stubs` in a temporary folder of its own).
    public let stubs: URL
    /// What the import printed: its summary and the list of what it did not import.
    public let output: String

    /// Records an issue at `sourceLocation` unless the import exits 0 saying each of `phrases` and
    /// `stubd check` accepts the folder.
    public init(_ kind: String, _ source: URL, saying phrases: [String],
                sourceLocation: SourceLocation = #_sourceLocation) throws {
        stubs = try TempStubs([:]).url.appendingPathComponent("Stubs")
        let imported = try run(stubdBinary.path, ["import", kind, source.path, "--stubs", stubs.path])
        output = imported.output
        #expect(imported.status == 0, "\(imported.output)\(imported.error)", sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(imported.output.contains(phrase), "\(imported.output)", sourceLocation: sourceLocation)
        }
        let check = try run(stubdBinary.path, ["check", "--stubs", stubs.path])
        #expect(check.status == 0, "\(check.output)\(check.error)", sourceLocation: sourceLocation)
    }
}
