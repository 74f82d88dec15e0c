import Foundation
import HTTPTypes
package import StubdEngine

/// What becomes of a forwarded exchange (`stubd record`, `serve --proxy`): whether it is recorded,
/// and the note that says so for the journal, the log and the notice. The transport only passes
/// on what came back; the decision and its words live here, beside the recorder.
package struct RecordingPolicy: Sendable {
    /// Writes what comes back; nil to only pass through.
    package let recorder: StubsRecorder?
    /// `--max-body`: an answer over it is streamed to the client, not held, so never recorded.
    package let maxBodyBytes: Int
    /// The real API, as the notes name it.
    package let target: String
    /// `serve --spec`: what is recorded is held to the spec that declares its operation, as a stub
    /// in the folder is at load.
    package let contracts: ContractSet?

    package init(recorder: StubsRecorder?, maxBodyBytes: Int, target: String, contracts: ContractSet? = nil) {
        self.recorder = recorder
        self.maxBodyBytes = maxBodyBytes
        self.target = target
        self.contracts = contracts
    }

    /// An answer held whole (so within `--max-body`: a larger one streams, see `streamed`): recorded
    /// when a recorder is given. With the note comes the route a recording wrote, to be put in force at once.
    package func answered(_ exchange: RecordedExchange) -> (note: String, recorded: Route?) {
        var note = "proxied to \(target)"
        guard let recorder else { return (note, nil) }
        switch recorder.record(exchange) {
        case let .written(files, route, serving, removed):
            return (note + "; recorded as \(route) in \(files.joined(separator: ", "))" + removedNote(removed) + contractWarning(exchange, files)
                    + notFoundHint(exchange, recorder) + turnedBadWarning(route, serving), serving)
        case .skipped(let why): note += "; not recorded: \(why)"
        case .failed(let why): note += "; RECORDING FAILED: \(why)"
        }
        return (note, nil)
    }

    /// `; the recording breaks openapi.yaml: /main/temp: expected number… (and 2 more)`, empty when it
    /// keeps to the spec or none is loaded. The recording is written all the same: it is what the API
    /// said, and a stub check at the next load says so again, at the file's line.
    func contractWarning(_ exchange: RecordedExchange, _ files: [String]) -> String {
        // A spec describes a WebSocket's handshake at most, not its messages.
        guard exchange.webSocket == nil else { return "" }
        let segments = PathPattern.split(exchange.path)
        guard let contract = contracts?.contract(method: exchange.method, path: segments),
              let (operation, _) = contract.operation(method: exchange.method, path: segments) else { return "" }
        let names = Set(exchange.responseHeaders.map { $0.name.canonicalName })
        let contentType = exchange.responseHeaders.firstValue(of: .contentType)
        let problems = AnswerConformance.violations(status: exchange.status, headerNames: names, contentType: contentType,
                                                    body: exchange.responseBody, of: operation, in: contract)
        guard let first = problems.first else { return "" }
        return "; WARNING: \(files.first ?? "the recording") breaks \(contract.specName): \(first.message)"
            + (problems.count > 1 ? " (and \(problems.count - 1) more; `stubd check --spec` lists them)" : "")
    }

    /// `; removed __files/…-2.json (no stub names it any longer)`: a re-recording rewrote the route, and
    /// a file leaving the folder is said, never done quietly.
    func removedNote(_ removed: [String]) -> String {
        removed.isEmpty ? "" : "; removed \(removed.joined(separator: ", ")) (no stub names \(removed.count == 1 ? "it" : "them") any longer)"
    }

    /// A route that answered 2xx, become a sequence ending in 4xx or 5xx: replayed, every call after
    /// the first gets the error. One unauthenticated call while recording turned a 200 stub into
    /// `responses: [200, 401]` without a word; now the note says so and how to keep it out.
    func turnedBadWarning(_ route: String, _ serving: Route) -> String {
        let statuses = serving.responses.map(\.status.code)
        guard statuses.count > 1, let last = statuses.last, last >= 400,
              statuses.dropLast().contains(where: { (200..<300).contains($0) }) else { return "" }
        let shown = statuses.count <= 8 ? statuses.map(String.init).joined(separator: ", ")
            : statuses.prefix(7).map(String.init).joined(separator: ", ") + ", … \(last)"
        return "; WARNING: \(route) answered \(statuses.first { (200..<300).contains($0) }!) and is now a sequence ending in \(last)"
            + " (responses: [\(shown)]), so a replay answers \(last) from call \(statuses.count) on. If that \(last) came from a stray call"
            + " (no credentials, a mistyped body), record again with --only 2xx,3xx --mode all, which keeps such answers out and rewrites the route"
    }

    /// A recorded 404 is most often a mistyped URL: say how to keep such answers out, once per note.
    func notFoundHint(_ exchange: RecordedExchange, _ recorder: StubsRecorder) -> String {
        guard exchange.status == .notFound, recorder.rules.statuses == .all else { return "" }
        return " (a 404 is recorded like any answer; --only 2xx,3xx keeps successes only)"
    }

    /// An answer too large to hold, passed to the client as it arrived: never recorded.
    package func streamed(bytes: Int, cut: String?) -> String {
        "proxied to \(target); streamed \(bytes) bytes" + (cut.map { ", \($0)" } ?? "")
            + ", not recorded: over --max-body (\(maxBodyBytes))"
    }

    /// No answer: the target could not be reached.
    package func unreachable(_ reason: String) -> String {
        "target unreachable: \(reason)"
    }

    /// An answer that could not be passed on (headers too large, a body past --max-decoded…).
    package func refused(_ detail: String) -> String {
        "refused: \(detail)"
    }

    /// No answer within `--timeout`.
    package func timedOut(afterSeconds seconds: Int) -> String {
        "target timed out after \(seconds) s"
    }
}
