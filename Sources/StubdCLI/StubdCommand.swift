// The entry point is `@main` on StubdCommand rather than main.swift: top-level code there is
// main-actor isolated, and libmicrohttpd calls back on its own threads.
import ArgumentParser
import Foundation
import StubdCore
import StubdEngine

@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
@main
struct StubdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stubd",
        abstract: "Serve canned HTTP answers from a Stubs folder, count hits, and simulate API quotas.",
        // One version for `stubd --version`, /__stubd/health and the release tarballs' names.
        version: StubEngine.version,
        subcommands: [Serve.self, Record.self, Drift.self, Check.self, OpenAPICommand.self, ImportCommand.self, ExportCommand.self, Routes.self, Hits.self, Coverage.self, Reset.self, Fleet.self, CA.self],
        defaultSubcommand: Serve.self)
}

/// Prints to standard error, for problems.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
