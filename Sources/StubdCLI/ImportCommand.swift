import ArgumentParser
import StubdCore
import StubdEngine

/// `stubd import …`: a Stubs folder from what people already have (a HAR capture, WireMock mappings, a Postman collection).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Write a Stubs folder from captures and stubs made with other tools (HAR, WireMock, Postman).", subcommands: [ImportHARCommand.self, ImportWireMockCommand.self, ImportPostmanCommand.self])

    /// How every `stubd import` ends: `body` (the import, printing its table and summary), or, when
    /// it refuses (nothing is written then), each problem on a line of its own after
    /// `stubd import NAME:` on stderr, and exit 1.
    static func run(_ name: String, _ body: () throws(ImportError) -> Void) throws {
        do throws(ImportError) { try body() } catch {
            printError("stubd import \(name): " + error.problems.joined(separator: "\nstubd import \(name): "))
            throw ExitCode(1)
        }
    }
}
