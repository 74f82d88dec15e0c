import HTTPTypes
import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// What becomes of a forwarded exchange, decided without a server: recorded, or why not, in the
/// words the journal, the log and the notice show.
@Suite struct RecordingPolicyTests {
    private func exchange(body: String = #"{"ok": true}"#) -> RecordedExchange {
        RecordedExchange(method: .get, path: "/users/1", query: [], requestHeaders: [:], requestBody: Data(), status: 200,
                         responseHeaders: fields(["Content-Type": "application/json"]), responseBody: Data(body.utf8))
    }

    @Test func withoutARecorderAnAnswerIsOnlyProxied() {
        let policy = RecordingPolicy(recorder: nil, maxBodyBytes: 10, target: "https://api.example.com")
        #expect(policy.answered(exchange()).note == "proxied to https://api.example.com")
    }

    @Test func anAnswerWithinMaxBodyIsRecordedAndTheNoteNamesTheRouteAndFiles() throws {
        let stubs = try TempStubs([:])
        let recorder = try StubsRecorder(root: stubs.url, rules: RecordingRules(), mode: .new)
        let policy = RecordingPolicy(recorder: recorder, maxBodyBytes: 1 << 20, target: "https://api.example.com")
        let note = policy.answered(exchange()).note
        #expect(note.hasPrefix("proxied to https://api.example.com; recorded as "), "\(note)")
        #expect(note.contains("users/1"), "\(note)")
        #expect(policy.answered(exchange()).note.contains("not recorded: "),
                "recording the same request again in `new` mode says why it wrote nothing")
    }

    /// With a spec, a recording that breaks it is written all the same (it is what the API said) and
    /// the note warns, naming the file and the place.
    @Test func aRecordingThatBreaksTheSpecIsWrittenWithAWarning() throws {
        let spec = try TempStubs(["openapi.yaml": """
            openapi: 3.0.3
            info: {title: users, version: "1"}
            paths:
              /users/{id}:
                get:
                  parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                  responses:
                    "200":
                      description: a user
                      content: {application/json: {schema: {type: object, required: [name], properties: {ok: {type: string}}}}}
            """])
        let contract = try APIContract.load(spec: spec.url.appendingPathComponent("openapi.yaml"))
        let stubs = try TempStubs([:])
        let recorder = try StubsRecorder(root: stubs.url, rules: RecordingRules(), mode: .new)
        let policy = RecordingPolicy(recorder: recorder, maxBodyBytes: 1 << 20, target: "https://api.example.com", contracts: ContractSet(contract))
        let note = policy.answered(exchange()).note
        #expect(note.contains("recorded as "), "\(note)")
        #expect(note.contains("; WARNING: users/1.json breaks openapi.yaml: "), "\(note)")
        #expect(note.contains("(and 1 more; `stubd check --spec` lists them)"), "\(note)")
        // One that keeps to it gets no warning.
        let keeps = policy.answered(exchange(body: #"{"name": "ada", "ok": "yes"}"#).with(path: "/users/2")).note
        #expect(keeps.contains("recorded as ") && !keeps.contains("WARNING"), "\(keeps)")
    }

    /// Issue 62 item 4: one unauthenticated call while recording turned a 200 stub into
    /// `responses: [200, 401]` with no word in the log. The note now warns, naming the route, the
    /// statuses and `--only`; a sequence that ends well (a 503, then a 200) is what tests want, unwarned.
    @Test func aRouteThatAnswered200BecomingASequenceEndingIn401IsWarnedNamingOnly() throws {
        let stubs = try TempStubs([:])
        let recorder = try StubsRecorder(root: stubs.url, rules: RecordingRules(), mode: .new)
        let policy = RecordingPolicy(recorder: recorder, maxBodyBytes: 1 << 20, target: "https://api.example.com")
        let first = policy.answered(exchange()).note
        #expect(first.contains("recorded as ") && !first.contains("WARNING"), "\(first)")
        let stray = policy.answered(exchange(body: #"{"error": "unauthorized"}"#).with(status: 401)).note
        #expect(stray.contains("; WARNING: rec-"), "\(stray)")
        #expect(stray.contains(" (GET /users/1) answered 200 and is now a sequence ending in 401 (responses: [200, 401]), so a replay answers 401 from call 2 on"),
                "\(stray)")
        #expect(stray.contains("record again with --only 2xx,3xx --mode all"), "\(stray)")

        let unavailable = policy.answered(exchange(body: "{}").with(path: "/flaky").with(status: 503)).note
        let recovered = policy.answered(exchange().with(path: "/flaky")).note
        #expect(recovered.contains("recorded as ") && !unavailable.contains("WARNING") && !recovered.contains("WARNING"), "\(recovered)")
    }

    @Test func theOtherEndsSayWhatHappened() {
        let policy = RecordingPolicy(recorder: nil, maxBodyBytes: 100, target: "http://127.0.0.1:9")
        #expect(policy.streamed(bytes: 300, cut: nil) == "proxied to http://127.0.0.1:9; streamed 300 bytes, not recorded: over --max-body (100)")
        #expect(policy.streamed(bytes: 300, cut: "cut: the client left")
            == "proxied to http://127.0.0.1:9; streamed 300 bytes, cut: the client left, not recorded: over --max-body (100)")
        #expect(policy.unreachable("connection refused") == "target unreachable: connection refused")
        #expect(policy.refused("its headers are too large") == "refused: its headers are too large")
        #expect(policy.timedOut(afterSeconds: 30) == "target timed out after 30 s")
    }
}

private extension RecordedExchange {
    func with(path: String) -> RecordedExchange {
        var copy = self
        copy.path = path
        return copy
    }

    func with(status: Int) -> RecordedExchange {
        var copy = self
        copy.status = HTTPResponse.Status(code: status)
        return copy
    }
}
