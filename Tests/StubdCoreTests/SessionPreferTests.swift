import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// `PUT /__stubd/prefer` (`StubControl.prefer`): a session picks among routes written for Prism's
/// `Prefer` convention, as `stubd openapi import` writes them, without the app sending the header.
/// Through the engine, which puts the session's preference on its requests (`StubEngine.answer`), as
/// the admin calls StubdClient makes set it. The call's refusals: SessionPreferAdminTests.
@Suite struct SessionPreferTests {
    /// The same two routes as the refusals' suite: one answer, and Prism's `Prefer: code=429` one.
    static let stubs = SessionPreferAdminTests.stubs

    @Test func aSessionsPreferenceChoosesTheAnswerForItsRequestsOnly() throws {
        try withEngine(try TempStubs(Self.stubs).url) { server in
            // What `StubControl.prefer` and `reset` send, in the session: `PUT /__s/ID/__stubd/prefer`, `POST …/reset`.
            func prefer(_ value: String?, _ session: String) -> Int {
                server.http("/__s/\(session)/__stubd/prefer", method: "PUT", body: value.map { #"{"prefer": "\#($0)"}"# } ?? #"{"prefer": null}"#).status
            }
            #expect(prefer("code=429", "limited") == 200)
            #expect(server.get("/__s/limited/weather/oslo").status == 429)
            #expect(server.get("/__s/other/weather/oslo").status == 200, "another session is not affected")
            #expect(server.get("/weather/oslo").status == 200, "nor the default one")
            // A request's own Prefer wins over the session's.
            #expect(server.get("/__s/limited/weather/oslo", headers: ["Prefer": "example=sunny"]).status == 200)
            // nil stops it; so does a reset.
            #expect(prefer(nil, "limited") == 200)
            #expect(server.get("/__s/limited/weather/oslo").status == 200)
            #expect(prefer("code=429", "limited") == 200)
            #expect(server.http("/__s/limited/__stubd/reset", method: "POST").status == 200)
            #expect(server.get("/__s/limited/weather/oslo").status == 200)
        }
    }
}
