import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing

/// `PUT /__stubd/prefer` (`StubControl.prefer`): a session picks among routes written for Prism's
/// `Prefer` convention, as `stubd openapi import` writes them, without the app sending the header.
/// Through a real server: the transport puts the session's preference on its requests
/// (StubResponder). The call's refusals, with no socket: SessionPreferAdminTests in StubdCoreTests.
@Suite struct SessionPreferTests {
    static let stubs = [
        "stubd.yml": """
        routes:
          - request: { method: GET, path: "/weather/{city}" }
            response: { status: 200, json: { temp: 21.5 } }
          - request: { method: GET, path: "/weather/{city}", headers: { Prefer: "code=429" } }
            response: { status: 429, headers: { Retry-After: "30" }, json: { message: slow down } }

        """,
    ]

    @Test func aSessionsPreferenceChoosesTheAnswerForItsRequestsOnly() async throws {
        try await withServer(try TempStubs(Self.stubs).url) { server in
            let limited = server.session("limited"), other = server.session("other")
            try await limited.prefer("code=429")
            #expect(try await get(limited.baseURL, "/weather/oslo").status == 429)
            #expect(try await get(other.baseURL, "/weather/oslo").status == 200, "another session is not affected")
            #expect(try await get(server.baseURL, "/weather/oslo").status == 200, "nor the default one")
            // A request's own Prefer wins over the session's.
            #expect(try await get(limited.baseURL, "/weather/oslo", headers: ["Prefer": "example=sunny"]).status == 200)
            // nil stops it; so does a reset.
            try await limited.prefer(nil)
            #expect(try await get(limited.baseURL, "/weather/oslo").status == 200)
            try await limited.prefer("code=429")
            try await limited.reset()
            #expect(try await get(limited.baseURL, "/weather/oslo").status == 200)
        }
    }
}
