import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// What the admin API does with a runtime stub it cannot take (`POST` and `DELETE /__stubd/stubs`),
/// driven with no socket (`EngineHarness`; these ran through a real server before issue 59).
/// RuntimeStubTests in StubdServerTests keeps the stubs StubdClient's `StubRoute` writes and sends.
@Suite struct RuntimeStubAdminTests {
    /// A bad delay, a header name that is no token or a body that is not JSON is a 400 naming the
    /// field, and adds nothing; removing an id never given is a 404.
    @Test func aBadRuntimeStubIs400SayingWhichFieldAndChangesNothing() throws {
        let harness = try EngineHarness(folder: exampleStubs)
        let before = harness.admin(.get, "stubs").json["stubs"] as? [Any]
        let r = harness.admin(.post, "stubs", body: #"{"request": {"path": "/x"}, "response": {"status": 200, "delay": "soonish"}}"#)
        #expect(r.status == 400)
        #expect((r.json["detail"] as? String)?.contains("'soonish' is not a duration") == true)
        let badHeader = harness.admin(.post, "stubs", body: #"{"request": {"path": "/x"}, "response": {"status": 200, "headers": {"Bad Name": "1"}}}"#)
        #expect(badHeader.status == 400)
        #expect((badHeader.json["detail"] as? String)?.contains("'Bad Name' is not a header name") == true)
        let notJSON = harness.admin(.post, "stubs", body: "{oops")
        #expect(notJSON.status == 400)
        let after = harness.admin(.get, "stubs").json["stubs"] as? [Any]
        #expect(before?.count == 0 && after?.count == 0)
        let gone = harness.admin(.delete, "stubs/s999")
        #expect(gone.status == 404)
    }

    /// Removing a runtime stub the session does not hold is a 404 that names the id asked for.
    @Test func removingAnUnknownRuntimeStubIs404NamingIt() throws {
        let harness = try EngineHarness(TempStubs(["a.json": "{}"]))
        let missing = harness.admin(.delete, "stubs/s999999")
        #expect(missing.status == 404)
        #expect(missing.text.contains("s999999"))
    }
}
