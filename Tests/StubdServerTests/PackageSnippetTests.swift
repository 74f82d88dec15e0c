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

    /// Issue 45 item 7: the README's XCTest found `Stubs` from the working directory, which is the
    /// package folder under `swift test` but not in Xcode. Its `#filePath` line, evaluated for a test
    /// file at `<package>/Tests/AppTests/WeatherServiceTests.swift`, must name `<package>/Stubs`.
    @Test func theReadmesXCTestFindsStubsFromItsOwnFileWhereverTheTestsRun() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "final class WeatherServiceTests: XCTestCase {").dropFirst().first?
            .components(separatedBy: "```").first)
        #expect(!block.contains(#"fileURLWithPath: ""#), "a path relative to the working directory:\n\(block)")
        let statement = try #require(block.components(separatedBy: "let stubs = ").dropFirst().first?.components(separatedBy: "\n\n").first)
        let steps = statement.components(separatedBy: ".").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(steps.first == "URL(fileURLWithPath: #filePath)", "\(statement)")
        var url = URL(fileURLWithPath: "/home/me/App/Tests/AppTests/WeatherServiceTests.swift")
        for step in steps.dropFirst() {
            if step == "deletingLastPathComponent()" { url.deleteLastPathComponent() }
            else if step.hasPrefix("appendingPathComponent(\"") { url.appendPathComponent(String(step.dropFirst(24).dropLast(2))) }
            else { Issue.record("a step this check cannot follow: \(step)") }
        }
        #expect(url.path == "/home/me/App/Stubs", "\(statement)")
        #expect(block.contains("startStubServer(stubs: stubs)"), "\(block)")
        // No package snippet names a placeholder URL to fill in.
        for page in ["README.md", "docs/testing-from-swift.md"] {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(page), encoding: .utf8)
            #expect(!text.contains(#".package(url: "https://github.com/<you>"#), "\(page) shows a placeholder package URL")
        }
    }
}
