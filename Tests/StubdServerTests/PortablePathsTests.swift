import Foundation
import StubdTestSupport
import Testing

/// `scripts/check-portable-paths` (issue 36): the repository must check out on a Mac's
/// case-insensitive volume. It passes on this clone and fails, naming the pair, on the layout the
/// repository had before the executable moved from Sources/stubd to Sources/StubdCLI.
@Suite struct PortablePathsTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/check-portable-paths").path

    /// A scratch git repository holding `files` (path, contents), committed nowhere: `git add` is
    /// enough for `git ls-files`. Pairs, not a dictionary: Swift's String equality is canonical, so
    /// "café" spelt two ways would be one key.
    static func repository(_ files: KeyValuePairs<String, String>) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-paths-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = URL(fileURLWithPath: root.path + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        #expect(try run("/usr/bin/git", ["-C", root.path, "init", "-q"]).status == 0)
        #expect(try run("/usr/bin/git", ["-C", root.path, "add", "."]).status == 0)
        return root
    }

    @Test func thisRepositoryChecksOutOnAMac() throws {
        let r = try run(testPython, [Self.script, repositoryRoot.path])
        #expect(r.status == 0, "\(r.output)\(r.error)")
    }

    @Test func theOldLayoutFailsNamingThePairTheTargetsAndTheProducts() throws {
        let old = try Self.repository([
            "Sources/Stubd/StubServer.swift": "",
            "Sources/stubd/Serve.swift": "",
            "Package.swift": """
                .library(name: "Stubd", targets: ["Stubd"]), .executable(name: "stubd", targets: ["stubd"]),
                .target(name: "Stubd", dependencies: []), .executableTarget(name: "stubd", dependencies: ["Stubd"]),
                """,
        ])
        defer { try? FileManager.default.removeItem(at: old) }
        let r = try run(testPython, [Self.script, old.path])
        #expect(r.status == 1)
        #expect(r.output.contains("'Sources/Stubd' and 'Sources/stubd' are one path on a Mac or Windows"), "\(r.output)")
        #expect(r.output.contains("targets 'Stubd' and 'stubd' differ only in case"), "\(r.output)")
        #expect(r.output.contains("products 'Stubd' and 'stubd' differ only in case"), "\(r.output)")
    }

    @Test func namesWindowsOrAMacCannotHoldAndUnicodeTwinsFail() throws {
        let odd = try Self.repository([
            "docs/what?.md": "", "Stubs/aux.json": "", "Stubs/caf\u{E9}.json": "", "Stubs/cafe\u{301}.json": "",
        ])
        defer { try? FileManager.default.removeItem(at: odd) }
        let r = try run(testPython, [Self.script, odd.path])
        #expect(r.status == 1)
        #expect(r.output.contains("'docs/what?.md' holds ?"), "\(r.output)")
        #expect(r.output.contains("'Stubs/aux.json' is a device name on Windows (AUX)"), "\(r.output)")
        #expect(r.output.contains("are one path on a Mac or Windows"), "\(r.output)")
    }
}
