import Foundation
import StubdTestSupport
import Testing

/// `scripts/check-doc-comments` (issue 37): every public declaration of StubdClient, StubdXCTest,
/// StubdTesting and the StubdProtocol reports they return has a doc comment, because DocC shows a
/// bare signature without a warning. It passes on this repository, fails naming file:line on a
/// file with undocumented declarations, and passes on the same file once each is documented.
@Suite struct DocCommentsTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/check-doc-comments").path

    /// A scratch folder holding one Swift file.
    static func folder(_ source: String) throws -> (folder: URL, file: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("Report.swift")
        try Data(source.utf8).write(to: file)
        return (folder, file)
    }

    /// Undocumented: a public func beside a documented one with an attribute (line 6), a case of a
    /// public enum (9), a requirement of a public protocol (15), members of a public extension (19,
    /// 26), a public init below an attribute line (31). Not public, or not declarations: the internal
    /// and private ones, `public` in a string and in a comment, the `extension` and `import` lines,
    /// the cases of a switch.
    static let undocumented = """
        import Foundation
        /// Documented.
        public struct Report {
            /// Documented, with an attribute line between.
            @inlinable public var count: Int { 0 }
            public func undocumented() -> String { "public func inAString()" }
            /// Documented.
            public enum Kind {
                case bare
                /// Documented.
                case documented
            }
            /// Documented.
            public protocol Source {
                var name: String { get }
            }
        }
        public extension Report {
            var total: Int {
                switch count {
                case 0: return 0
                default: return 1
                }
            }
            // public func inAComment()
            func helper() {}
            private func hidden() {}
        }
        extension Report {
            @usableFromInline
            public init(raw: Int) {}
            func internalHelper() {}
        }
        """

    /// The same file with each declaration the check named documented.
    static var documented: String {
        undocumented
            .replacingOccurrences(of: "    public func undocumented", with: "    /// Now documented.\n    public func undocumented")
            .replacingOccurrences(of: "        case bare", with: "        /// Now documented.\n        case bare")
            .replacingOccurrences(of: "        var name: String", with: "        /// Now documented.\n        var name: String")
            .replacingOccurrences(of: "    var total", with: "    /// Now documented.\n    var total")
            .replacingOccurrences(of: "    func helper", with: "    /// Now documented.\n    func helper")
            .replacingOccurrences(of: "    @usableFromInline", with: "    /// Now documented.\n    @usableFromInline")
    }

    @Test func theClientSideProductsAreDocumented() throws {
        let r = try run(testPython, [Self.script])
        #expect(r.status == 0, "\(r.output)\(r.error)")
        #expect(r.output.contains("each with a doc comment"), "\(r.output)")
    }

    @Test func undocumentedPublicDeclarationsFailNamingFileAndLine() throws {
        let (folder, file) = try Self.folder(Self.undocumented)
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try run(testPython, [Self.script, folder.path])
        #expect(r.status == 1, "\(r.output)\(r.error)")
        let named = r.output.split(separator: "\n").map(String.init)
        #expect(named == [
            "\(file.path):6: public func undocumented() -> String { \"public func inAString()\" }",
            "\(file.path):9: case bare",
            "\(file.path):15: var name: String { get }",
            "\(file.path):19: var total: Int {",
            "\(file.path):26: func helper() {}",
            "\(file.path):31: public init(raw: Int) {}",
        ], "\(r.output)")
        #expect(r.error.contains("6 of 11 public declarations in 1 file have no doc comment"), "\(r.error)")
    }

    @Test func theSameFileDocumentedPasses() throws {
        let (folder, _) = try Self.folder(Self.documented)
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try run(testPython, [Self.script, folder.path])
        #expect(r.status == 0, "\(r.output)\(r.error)")
        #expect(r.output.contains("ok   11 public declarations in 1 file, each with a doc comment"), "\(r.output)")
    }
}
