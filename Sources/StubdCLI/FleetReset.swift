import ArgumentParser
import StubdClient

/// `stubd fleet reset URL…`: `POST /__stubd/reset` on each replica, every session of each.
struct FleetReset: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Reset every session of every replica (hits, quotas, clocks, scenarios, journals, runtime stubs).")
    @OptionGroup var replicas: FleetReplicas

    func run() async throws {
        var failed = 0
        for (url, result) in await replicas.each({ try await $0.reset() }) {
            switch result {
            case .success: print("reset all sessions at \(url)")
            case .failure(let error):
                failed += 1
                printError("stubd fleet reset: \(url): " + FleetReplicas.explain(error))
            }
        }
        if failed > 0 {
            let others = failed < replicas.urls.count ? "; the others were" : ""
            printError("stubd fleet reset: \(failed) of \(replicas.urls.count) replicas not reset\(others)")
            throw ExitCode(1)
        }
    }
}
