import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 62 item 7: a stub another tool named (a WireMock mapping's `name`, a Postman example's)
/// is written as a route of that name, not `rec-<hash>`, and its body is named so under `__files/`:
/// made a safe file name, unique ignoring case (a Mac's file system would fold two), never a user's file.
@Suite struct ImportedRouteNameTests {
    private func stub(_ path: String, name: String?) -> DeclaredStub {
        var stub = DeclaredStub(method: .post, path: path, status: HTTPResponse.Status(code: 201),
                                responseHeaders: fields(["Content-Type": "application/json"]), responseBody: Data(#"{"path": "\#(path)"}"#.utf8),
                                sample: RequestHead(method: .post, path: path))
        stub.name = name
        return stub
    }

    @Test func aNamedStubKeepsItsNameMadeSafeAndUniqueIgnoringCase() throws {
        let mine = #"{"mine": true}"#
        let stubs = try TempStubs(["__files/login.json": mine])
        let recorder = try StubsRecorder(root: stubs.url, rules: RecordingRules(), mode: .new)
        var written: [String: [String]] = [:]
        let named: [(path: String, name: String?)] = [("/token", "Basic valid payments token"), ("/copin", "basic VALID payments token!"),
                                                     ("/escape", "../../etc/passwd"), ("/login", "Login"), ("/kanji", "日本"), ("/plain", nil)]
        for (path, name) in named {
            guard case let .written(files, _, serving, _) = recorder.record(stub(path, name: name)) else {
                Issue.record("\(path) not written"); continue
            }
            written[serving.name ?? "?"] = files
        }
        let names = Set(written.keys)
        #expect(names.isSuperset(of: ["Basic-valid-payments-token", "basic-VALID-payments-token-2", "etc-passwd", "Login-2"]), "\(names.sorted())")
        #expect(written["Basic-valid-payments-token"] == ["__files/Basic-valid-payments-token.json", "stubd.recorded.yml"])
        #expect(written["etc-passwd"] == ["__files/etc-passwd.json", "stubd.recorded.yml"])
        // Nothing safe is left of "日本"; no name at all: the recorder's own.
        #expect(names.filter { $0.hasPrefix("rec-") }.count == 2, "\(names.sorted())")
        #expect(Set(names.map { $0.lowercased() }).count == names.count)
        // The user's own __files/login.json is not the route "Login"'s body: it is left as it was.
        #expect(try String(contentsOf: stubs.url.appendingPathComponent("__files/login.json"), encoding: .utf8) == mine)

        let catalog = try StubCatalog.load(stubs: stubs.url)
        #expect(Set(catalog.routes.compactMap(\.name)) == names)
        let bodies = RecordingAgainTests.files(stubs.url).filter { $0.hasPrefix("__files/") }
        #expect(Set(bodies.map { $0.lowercased() }).count == bodies.count, "\(bodies.sorted())")
        #expect(bodies.allSatisfy { !$0.dropFirst("__files/".count).contains("/") }, "\(bodies.sorted())")
    }

    @Test func aNameBecomesLettersDigitsAndDashes() {
        #expect(RecordedNames.routeName("OP mock0100000000 Account Not Found") == "OP-mock0100000000-Account-Not-Found")
        #expect(RecordedNames.routeName("1. Generate access token from refresh token") == "1-Generate-access-token-from-refresh-token")
        #expect(RecordedNames.routeName("..\\..\\windows/system32") == "windows-system32")
        #expect(RecordedNames.routeName("snake_case") == "snake_case")
        #expect(RecordedNames.routeName("Café") == "Caf")
        #expect(RecordedNames.routeName(" -- ") == nil)
        let long = RecordedNames.routeName(String(repeating: "word ", count: 40))!
        #expect(long.utf8.count <= 64 && long.hasPrefix("word-word") && long != RecordedNames.routeName(String(repeating: "word ", count: 41)))
    }
}
