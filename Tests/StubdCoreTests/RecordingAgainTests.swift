import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 62 item 4: recording a route again (`--mode all`) rewrites its block of
/// `stubd.recorded.yml`, and the bodies of answers it no longer has leave `__files/` with it;
/// a file the recorder did not write for that route, or one a stub still names, stays.
@Suite struct RecordingAgainTests {
    private func exchange(status: Int, body: String) -> RecordedExchange {
        RecordedExchange(method: .get, path: "/me", query: [QueryItem(name: "fields", value: "all")], requestHeaders: [:], requestBody: Data(),
                         status: HTTPResponse.Status(code: status), responseHeaders: fields(["Content-Type": "application/json"]),
                         responseBody: Data(body.utf8))
    }

    private static let ok = #"{"name": "ada"}"#
    private static let unauthorized = #"{"error": "unauthorized"}"#

    static func files(_ root: URL) -> Set<String> {
        var all: Set<String> = []
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)! where !url.hasDirectoryPath {
            all.insert(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        return all
    }

    /// A 200 then a stray 401 recorded (`responses: [200, 401]`, two bodies), then the folder recorded again.
    private func recordedTwice(_ stubs: TempStubs) throws -> (bodies: [String], again: StubsRecorder) {
        let first = try StubsRecorder(root: stubs.url, rules: RecordingRules(), mode: .new)
        _ = first.record(exchange(status: 200, body: Self.ok))
        _ = first.record(exchange(status: 401, body: Self.unauthorized))
        let bodies = Self.files(stubs.url).filter { $0.hasPrefix("__files/me-get-") }.sorted()
        try #require(bodies.count == 2 && bodies[1].hasSuffix("-2.json"), "\(Self.files(stubs.url).sorted())")
        return (bodies, try StubsRecorder(root: stubs.url, rules: RecordingRules(), mode: .all))
    }

    @Test func recordingARouteAgainRemovesTheBodiesItNoLongerNamesAndNothingElse() throws {
        let stubs = try TempStubs(["__files/mine.json": #"{"mine": true}"#, "profile.json": "{}"])
        let (bodies, again) = try recordedTwice(stubs)
        let before = Self.files(stubs.url)
        guard case let .written(_, _, _, removed) = again.record(exchange(status: 200, body: Self.ok)) else {
            Issue.record("not written"); return
        }
        #expect(removed == [bodies[1]])
        #expect(Self.files(stubs.url) == before.subtracting([bodies[1]]), "\(Self.files(stubs.url).sorted())")
        let manifest = try String(contentsOf: stubs.url.appendingPathComponent("stubd.recorded.yml"), encoding: .utf8)
        #expect(manifest.contains("response: { status: 200") && !manifest.contains("401"), "\(manifest)")
        let catalog = try StubCatalog.load(stubs: stubs.url)
        guard case .matched(let route, _) = catalog.match(RequestHead(method: .get, path: "/me", query: [QueryItem(name: "fields", value: "all")])) else {
            Issue.record("the folder does not answer GET /me"); return
        }
        #expect(route.responses.map(\.status.code) == [200])
    }

    /// A route of the user's that names the 401's body (copied into `stubd.yml`, say) keeps it.
    @Test func aBodyAnotherStubStillNamesIsKept() throws {
        let stubs = try TempStubs([:])
        let (bodies, _) = try recordedTwice(stubs)
        let kept = String(bodies[1].dropFirst("__files/".count))
        try stubs.write("stubd.yml", "routes:\n  - name: denied\n    request: { path: /denied }\n    response: { status: 401, file: \(kept) }\n")
        let again = try StubsRecorder(root: stubs.url, rules: RecordingRules(), mode: .all)
        guard case let .written(_, _, _, removed) = again.record(exchange(status: 200, body: Self.ok)) else {
            Issue.record("not written"); return
        }
        #expect(removed.isEmpty)
        #expect(Self.files(stubs.url).contains(bodies[1]))
        _ = try StubCatalog.load(stubs: stubs.url)
    }
}
