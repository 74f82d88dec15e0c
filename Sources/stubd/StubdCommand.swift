// The entry point is `@main` on StubdCommand rather than main.swift: top-level code there is
// main-actor isolated, and libmicrohttpd calls back on its own threads.
import ArgumentParser
import Foundation
import StubdClient

@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
@main
struct StubdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stubd",
        abstract: "Serve canned HTTP answers from a Stubs folder, count hits, and simulate API quotas.",
        version: "0.1.0",
        subcommands: [Serve.self, Record.self, Drift.self, Check.self, OpenAPICommand.self, Routes.self, Hits.self, Coverage.self, Reset.self, CA.self],
        defaultSubcommand: Serve.self)
}

/// `--stubs`, shared by the commands that read a Stubs folder; `STUBD_STUBS` stands in for it.
struct StubsOption: ParsableArguments {
    @Option(name: .long, help: "The stubs directory (env STUBD_STUBS).")
    var stubs: String = ProcessInfo.processInfo.environment["STUBD_STUBS"] ?? "./Stubs"

    var url: URL { URL(fileURLWithPath: stubs) }
}

/// `--url` and `--session` for commands that talk to a running stubd.
struct ServerOption: ParsableArguments {
    @Option(name: .long, help: "The running stubd (env STUBD_URL).")
    var url: String = ProcessInfo.processInfo.environment["STUBD_URL"] ?? "http://127.0.0.1:8080"

    @Option(name: .long, help: "A session id: only that session's hits and state.")
    var session: String?

    /// The daemon, or one session of it.
    var client: StubdClient {
        let root = StubdClient(baseURL: URL(string: url)!)
        return session.map(root.sessionClient) ?? root
    }

    /// A failure worded for the command line: with nothing listening, how to start a server (the
    /// client's own wording is for test fixtures, where unsetting STUBD_URL is the other way out).
    func explain(_ error: any Error) -> String {
        if case StubdError.unreachable(let at, let reason)? = error as? StubdError {
            return "no stubd answers at \(at) (\(reason)). Start one in another terminal with `stubd serve` "
                + "(or `swift run stubd serve`), or point at a running one with --url or STUBD_URL."
        }
        return "\(error)"
    }

    /// Runs `body` against the server; a failure is printed as `stubd COMMAND: …` and exits 1.
    func call(_ command: String, _ body: (StubdClient) async throws -> Void) async throws {
        do {
            try await body(client)
        } catch {
            printError("stubd \(command): " + explain(error))
            throw ExitCode(1)
        }
    }

    func validate() throws {
        guard let parsed = URL(string: url), parsed.scheme == "http" || parsed.scheme == "https", parsed.host != nil else {
            throw ValidationError("--url '\(url)' is not a URL like http://127.0.0.1:8080")
        }
    }
}

/// Prints to standard error, for problems.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
