import Foundation
import StubdTestSupport
import Testing

/// The README's `.package(path:)` snippet, as a separate package would write it, resolved by SwiftPM
/// against this clone (issue 24 item 4): it loads as written from a folder named `stubd`, and from
/// a folder with another name SwiftPM wants that name, as the README says.
@Suite struct PackageSnippetTests {
    static let repository = repositoryRoot

    /// `AppTests`'s two lines from the README's path snippet.
    static func snippet() throws -> (package: String, target: String) {
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```swift\n.package(path: ").dropFirst().first?
            .components(separatedBy: "```").first)
        let lines = block.split(separator: "\n").map(String.init)
        return (".package(path: " + lines[0], lines[1])
    }

    /// A package beside a link named `folder` to this clone, with the snippet's lines; SwiftPM's
    /// verdict on its dependency graph.
    static func resolve(folder: String, package: String, target: String) throws -> (status: Int32, output: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-snippet-\(UUID().uuidString)")
        let app = root.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Tests/AppTests"), withIntermediateDirectories: true)
        let link = root.appendingPathComponent(folder)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: repository)
        defer {
            // The link first, by itself, so that removing the folder can never reach the clone.
            unlink(link.path)
            try? FileManager.default.removeItem(at: root)
        }
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "App", platforms: [.macOS(.v15)],
                dependencies: [\(package.replacingOccurrences(of: "../stubd", with: "../\(folder)"))],
                targets: [\(target)])
            """
        try Data(manifest.utf8).write(to: app.appendingPathComponent("Package.swift"))
        try Data("import StubdXCTest\n".utf8).write(to: app.appendingPathComponent("Tests/AppTests/AppTests.swift"))
        // The clone's own pins: the graph resolves from SwiftPM's cache of them, as a build here did.
        try? FileManager.default.copyItem(at: repository.appendingPathComponent("Package.resolved"), to: app.appendingPathComponent("Package.resolved"))
        // SwiftPM leaves lock files in TMPDIR: inside the folder that goes afterwards.
        let scratch = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        let r = try run("/usr/bin/env", ["swift", "package", "--package-path", app.path, "show-dependencies"], environment: environment)
        return (r.status, r.output + r.error)
    }

    @Test func theReadmesPathSnippetLoadsFromAFolderNamedStubd() throws {
        let (package, target) = try Self.snippet()
        #expect(package == #".package(path: "../stubd"),"#)
        let r = try Self.resolve(folder: "stubd", package: package, target: target)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("stubd<"), "\(r.output)")
    }

    @Test func fromAFolderWithAnotherNameSwiftPMWantsThatName() throws {
        let (package, target) = try Self.snippet()
        let r = try Self.resolve(folder: "my-clone", package: package, target: target)
        #expect(r.status != 0)
        #expect(r.output.contains("unknown package 'stubd' in dependencies of target 'AppTests'; valid packages are: 'my-clone'"), "\(r.output)")
    }
}
