import Foundation

/// The repository this file is in: Tests/StubdTestSupport/RepositoryPaths.swift, two folders down.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The repository's example Stubs folder.
public let exampleStubs = repositoryRoot.appendingPathComponent("Stubs")

/// The `stubd` binary built beside the tests (`swift build` builds it; the test script runs that first).
public let stubdBinary: URL = {
    let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [dir, dir.deletingLastPathComponent(), dir.deletingLastPathComponent().deletingLastPathComponent()] {
        let url = candidate.appendingPathComponent("stubd")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return repositoryRoot.appendingPathComponent(".build/debug/stubd")
}()
