import ArgumentParser
import Foundation
import StubdClient

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
