import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdTestSupport
import Testing

/// A recording replays what the API sent, byte for byte: `stubd serve --proxy --record-missing`
/// against an upstream sending exact bytes, then `stubd serve` on the folder alone (issue 29).
@Suite(.serialized) struct FaithfulRecordingTests {
    /// Numbers a re-serializer respells (`1.0` → `1`, `-0.0` → `-0`, `1e21` → `1000000000000000000000`),
    /// escapes it decodes, and keys out of order.
    static let awkwardJSON = Data(#"{"zeta":1.0,"alpha":-0.0,"big":1e21,"tiny":2.50e-3,"text":"caf\u00e9 \ud83d\ude00 \/ok","nested":{"b":[1.50,2],"a":null}}"#.utf8)

    static let answers: [String: (contentType: String, body: Data)] = [
        "/weather": ("application/json", awkwardJSON),
        "/forecast.json": ("application/json; charset=utf-8", awkwardJSON),
        "/note": ("text/plain", Data("plain words\n".utf8)),
    ]

    /// Records every answer through `stubd serve --proxy --record-missing` (and `extra` flags) into a new folder.
    static func record(_ extra: [String] = []) async throws -> URL {
        let upstream = try RawUpstream(answers: answers.mapValues {
            RawUpstream.response(headers: ["Content-Type: \($0.contentType)"], body: $0.body)
        })
        let folder = try TempStubs([:]).url
        let recorder = try ServeProcess(["--stubs", folder.path, "--proxy", upstream.url.absoluteString, "--record-missing", "--allow-ci"] + extra)
        for (path, sent) in answers {
            let live = try await get(recorder.baseURL, path)
            #expect(live.status == 200 && live.body == sent.body, "\(path) through the proxy: \(live.status) \(live.text)\n\(recorder.log)")
        }
        return folder
    }

    @Test func aRecordingReplaysTheAPIsBytesAndContentTypeExactly() async throws {
        let folder = try await Self.record()
        let replay = try ServeProcess(["--stubs", folder.path])
        for (path, sent) in Self.answers {
            let again = try await get(replay.baseURL, path)
            #expect(again.status == 200, "\(path): \(again.status) \(again.text)\n\(replay.log)")
            #expect(again.body == sent.body, "\(path) replays \(again.text), the API sent \(String(decoding: sent.body, as: UTF8.self))")
            // JSON's charset=utf-8 has no effect (RFC 8259 §11), so `.json` files serve both; any other type exactly.
            let served = again.header("Content-Type") ?? "none"
            if sent.contentType.hasPrefix("application/json") {
                #expect(served.hasPrefix("application/json"), "\(path): \(served)")
            } else {
                #expect(served == sent.contentType, "\(path): \(served)")
            }
        }
        // Where the extension serves the API's type exactly, the recording is a plain file.
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("forecast.json").path))
    }

    @Test func prettyJSONIsAChoiceThatSortsAndIndents() async throws {
        let folder = try await Self.record(["--pretty-json"])
        let replay = try ServeProcess(["--stubs", folder.path])
        let again = try await get(replay.baseURL, "/weather")
        #expect(again.status == 200)
        let text = again.text
        #expect(text.contains("\n"), "not indented: \(text)")
        let alpha = try #require(text.range(of: "\"alpha\"")), zeta = try #require(text.range(of: "\"zeta\""))
        #expect(alpha.lowerBound < zeta.lowerBound, "keys not sorted: \(text)")
    }

    @Test func prettyJSONWithoutRecordingIsRefused() throws {
        // A validation error: the process ends before it would listen.
        let r = try run(stubdBinary.path, ["serve", "--stubs", try TempStubs([:]).url.path, "--port", "0", "--proxy", "http://127.0.0.1:9", "--pretty-json"])
        #expect(r.status != 0, "serve started anyway")
        #expect(r.error.contains("--pretty-json applies to recording"), "\(r.error)")
    }
}
