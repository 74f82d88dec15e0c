import Foundation
import StubdTestSupport
import Testing

/// `stubd drift` against answers too wide or too large to compare (issue 38, item 6): comparison
/// is linear in an object's keys, and a run that compared nothing does not pass.
@Suite struct DriftBoundsTests {
    /// `{"a0":0,"a1":0,…}` with `count` keys named `prefix`N.
    static func wideObject(_ prefix: String, _ count: Int) -> Data {
        Data(("{" + (0..<count).map { "\"\(prefix)\($0)\":0" }.joined(separator: ",") + "}").utf8)
    }

    /// Before: 60,000 keys renamed were 120,000 shape changes compared pairwise (7·10^9 array
    /// comparisons); the run did not end in minutes. Now they are set lookups.
    @Test func anObjectOfManyChangedKeysIsComparedInLinearTime() throws {
        let keys = 60_000
        let folder = try TempStubs([:]).url
        try Self.wideObject("a", keys).write(to: folder.appendingPathComponent("wide.json"))
        let upstream = try RawUpstream(answers: [
            "/wide": RawUpstream.response(headers: ["Content-Type: application/json"], body: Self.wideObject("b", keys)),
        ])
        let r = try run(stubdBinary.path, ["drift", "--target", upstream.url.absoluteString, "--stubs", folder.path,
                                         "--format", "json", "--rate", "100", "--timeout", "50"], killedAfter: 60)
        #expect(r.status == 1, "\(r.seconds) s: \(r.error)")
        #expect(r.seconds < 30, "\(r.seconds) s")
        #expect(r.output.contains(#""change" : "removed (was number)""#) || r.output.contains(#""change":"removed (was number)""#),
                "\(r.output.prefix(500))")
    }

    /// Before: "1 failed … 0 of 0 compared route(s)" and exit 0, as if the API matched.
    @Test func aRunThatComparedNothingDoesNotPass() throws {
        let folder = try TempStubs(["big.json": #"{"a": 1}"#]).url
        let upstream = try RawUpstream(answers: [
            "/big": RawUpstream.response(headers: ["Content-Type: application/json"], body: Data(("{\"a\": \"" + String(repeating: "x", count: 4000) + "\"}").utf8)),
        ])
        let r = try run(stubdBinary.path, ["drift", "--target", upstream.url.absoluteString, "--stubs", folder.path, "--max-body", "1000"], killedAfter: 60)
        #expect(r.status == 2, "\(r.output)\(r.error)")
        #expect(r.output.contains("more than 1000 bytes"), "\(r.output)")
        #expect(r.error.contains("stubd drift: no answer was compared (1 route(s) failed or skipped"), "\(r.error)")
    }
}
