public import Foundation

/// The repository this file is in: Tests/StubdCoreTestSupport/RepositoryPaths.swift, two folders down.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The repository's example Stubs folder: the weather APIs of the README's tour, quotas and all.
public let exampleStubs = repositoryRoot.appendingPathComponent("Stubs")

/// A folder of one plain 1 KB file, `GET /plain/payload.json`, under no quota and no manifest: for
/// tests that send many requests, or raw ones, and need an answer nothing else shapes.
public let plainStubs = repositoryRoot.appendingPathComponent("Tests/Fixtures/PlainStubs")

/// The GitHub REST API folder users are told to copy (docs/quotas-and-clock.md).
public let gitHubStubs = repositoryRoot.appendingPathComponent("Examples/GitHub/Stubs")

/// The `stubd` binary built beside the tests (`swift build` builds it; the test script runs that first).
public let stubdBinary: URL = {
    let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [dir, dir.deletingLastPathComponent(), dir.deletingLastPathComponent().deletingLastPathComponent()] {
        let url = candidate.appendingPathComponent("stubd")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return repositoryRoot.appendingPathComponent(".build/debug/stubd")
}()
