import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import Testing

/// Recording against upstreams that answer what no polite API would, over real sockets: nothing
/// crashes the recorder, no written name changes meaning, no secret reaches the folder or the log
/// (issue 23).
@Suite(.serialized) struct RecordingHardeningTests {
    /// Server options that forward everything to `target`, recording into `folder`.
    func recording(to target: URL, into folder: URL, rules: RecordingRules = RecordingRules(),
                   mode: StubsRecorder.Mode = .new) throws -> StubServer.Options {
        var options = StubServer.Options()
        var forwarding = ForwardingOptions(target: target, scope: .everything)
        forwarding.recorder = try StubsRecorder(root: folder, rules: rules, mode: mode)
        options.forwarding = forwarding
        return options
    }

    static func json(_ text: String) -> Data { Data(text.utf8) }

    @Test func aSetCookieWithoutANameIsNotKeptAndRecordingGoesOn() async throws {
        let upstream = try RawUpstream(answers: [
            "/semicolon": RawUpstream.response(headers: ["Content-Type: application/json", "Set-Cookie: ;"], body: Self.json(#"{"a":1}"#)),
            "/empty": RawUpstream.response(headers: ["Content-Type: application/json", "Set-Cookie:"], body: Self.json(#"{"b":2}"#)),
            "/named": RawUpstream.response(headers: ["Content-Type: application/json", "Set-Cookie: sid=abcdef123456; Path=/"],
                                           body: Self.json(#"{"c":3}"#)),
        ])
        let folder = try TempStubs([:]).url
        try await withServer(folder, options: try recording(to: upstream.url, into: folder)) { (recorder: StubServer) async throws in
            for path in ["/semicolon", "/empty", "/named"] {
                #expect(try await get(recorder.baseURL, path).status == 200, "\(path)")
            }
        }
        try await withServer(folder) { (replay: StubServer) async throws in
            let semicolon = try await get(replay.baseURL, "/semicolon")
            #expect(semicolon.json["a"] as? Int == 1)
            #expect(semicolon.header("Set-Cookie") == nil)
            #expect(try await get(replay.baseURL, "/empty").json["b"] as? Int == 2)
            #expect(try await get(replay.baseURL, "/named").header("Set-Cookie") == "sid=<redacted>; Path=/")
        }
    }
}
