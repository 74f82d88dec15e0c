import ArgumentParser
import StubdClient

struct Reset: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Reset hits, sequences, quotas, journal, runtime stubs and clock of a running stubd.")
    @OptionGroup var server: ServerOption

    func run() async throws {
        try await server.call("reset") { client in
            try await client.reset()
            print("reset \(server.session.map { "session \($0)" } ?? "all sessions") at \(server.url)")
        }
    }
}
