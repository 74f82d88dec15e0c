import ArgumentParser
import Foundation
import StubdClient

/// The replicas' own addresses, as `stubd fleet` takes them (not the balancer's).
struct FleetReplicas: ParsableArguments {
    @Argument(help: ArgumentHelp("Each replica's own URL (http://127.0.0.1:8081 …), not the balancer's.", valueName: "replica-url"))
    var urls: [String] = []

    func validate() throws {
        if urls.isEmpty {
            throw ValidationError("give each replica's URL: stubd fleet reset http://127.0.0.1:8081 http://127.0.0.1:8082 http://127.0.0.1:8083")
        }
        var seen = Set<String>()
        for url in urls {
            guard let parsed = URL(string: url), parsed.scheme == "http" || parsed.scheme == "https", parsed.host != nil else {
                throw ValidationError("'\(url)' is not a URL like http://127.0.0.1:8081")
            }
            // The same replica twice would count its coverage twice.
            guard seen.insert(url).inserted else { throw ValidationError("\(url) is given twice: give each replica once") }
        }
    }

    /// Calls `body` on every replica at once, and returns each replica's result or its failure,
    /// in the order given: every replica is tried, so one that is down does not hide the others.
    func each<Value: Sendable>(_ body: @escaping @Sendable (StubdClient) async throws -> Value) async -> [(url: String, result: Result<Value, any Error>)] {
        await withTaskGroup(of: (Int, Result<Value, any Error>).self, returning: [(url: String, result: Result<Value, any Error>)].self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask {
                    do { return (index, .success(try await body(StubdClient(baseURL: URL(string: url)!)))) } catch { return (index, .failure(error)) }
                }
            }
            var results = [Result<Value, any Error>?](repeating: nil, count: urls.count)
            for await (index, result) in group { results[index] = result }
            return zip(urls, results).map { (url: $0, result: $1!) }
        }
    }

    /// A replica's failure worded for the command line.
    static func explain(_ error: any Error) -> String {
        if case StubdError.unreachable(_, let reason)? = error as? StubdError {
            return "no stubd answers (\(reason)); start the replica, or give the address it listens on"
        }
        return "\(error)"
    }
}
