import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol

/// Issue 63: Apollo's automatic persisted queries. A client sends the SHA-256 of its query alone;
/// a server that does not know it answers `PersistedQueryNotFound` (200, as Apollo Server 4), and
/// the client sends hash and query, which registers it for the next time.
@Suite struct GraphQLPersistedQueryTests {
    static let query = "query Me { me { id name } }"
    static let manifest = """
        routes:
          - name: me
            request:
              path: /graphql
              graphql: { query: "\(query)" }
            response: { json: { data: { me: { id: "1", name: Ada } } } }
          - name: weather
            request:
              path: /graphql
              graphql: { operationName: GetWeather }
            response: { json: { data: { weather: { tempC: 21 } } } }
        """

    private func post(_ h: EngineHarness, _ body: String, session: String = "") -> EngineAnswer {
        h.answer("/graphql", method: .post, headers: ["Content-Type": "application/json"], body: body, session: session)
    }

    private func hashOnly(_ hash: String, operation: String) -> String {
        #"{"operationName":"\#(operation)","variables":{},"extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}}"#
    }

    @Test func theHashOfARoutesQueryAsWrittenIsAnsweredAtOnce() throws {
        let h = try EngineHarness(TempStubs(["stubd.yml": Self.manifest]))
        let answer = post(h, hashOnly(SHA256.hex(Self.query), operation: "Me"))
        #expect(answer.status == 200 && answer.text.contains("Ada"), "\(answer.status) \(answer.text)")
    }

    @Test func anUnknownHashIsNotFoundThenHashAndQueryRegisterItForTheSession() throws {
        let h = try EngineHarness(TempStubs(["stubd.yml": Self.manifest]))
        let query = "query GetWeather { weather { tempC } }"
        let hash = SHA256.hex(query)
        let first = post(h, hashOnly(hash, operation: "GetWeather"), session: "a")
        #expect(first.status == 200)
        #expect(first.text == #"{"errors":[{"extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"},"message":"PersistedQueryNotFound"}]}"#, "\(first.text)")
        #expect(first.header("Cache-Control") == "private, no-cache, must-revalidate")

        let second = post(h, #"{"operationName":"GetWeather","query":"\#(query)","extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}}"#, session: "a")
        #expect(second.status == 200 && second.text.contains("tempC"), "\(second.text)")
        let third = post(h, hashOnly(hash, operation: "GetWeather"), session: "a")
        #expect(third.text.contains("tempC"), "registered: the hash alone is answered now: \(third.text)")

        #expect(post(h, hashOnly(hash, operation: "GetWeather"), session: "b").text.contains("PersistedQueryNotFound"),
                "another session registered nothing")
        _ = h.admin(.post, "reset", session: "a")
        #expect(post(h, hashOnly(hash, operation: "GetWeather"), session: "a").text.contains("PersistedQueryNotFound"),
                "a reset forgets what the session registered")
        let journal = try h.requests(session: "b")
        #expect(journal.requests.last?.notes?.first?.contains("persisted query \(hash) unknown") == true, "\(journal.requests.last as Any)")
    }

    @Test func inProxyModeAnUnknownHashGoesToTheRealServer() throws {
        let h = try EngineHarness(TempStubs(["stubd.yml": Self.manifest]))
        var head = RequestHead(method: .post, path: "/graphql", headers: [.contentType: "application/json"],
                               body: Data(hashOnly(SHA256.hex("query Other { other }"), operation: "Other").utf8))
        #expect(h.engine.answer(head, session: "", passingMisses: true) == nil, "passed on, not answered PersistedQueryNotFound")
        head.body = Data(hashOnly(SHA256.hex(Self.query), operation: "Me").utf8)
        #expect(h.engine.answer(head, session: "", passingMisses: true)?.route?.name == "me", "a hash a route knows is still answered")
    }

    @Test func aHashThatIsNotTheQuerysIsRefusedAsApolloServerDoes() throws {
        let h = try EngineHarness(TempStubs(["stubd.yml": Self.manifest]))
        let wrong = post(h, #"{"query":"\#(Self.query)","extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(SHA256.hex("other"))"}}}"#)
        #expect(wrong.status == 400)
        #expect(wrong.text.contains("provided sha does not match query") && wrong.text.contains("BAD_REQUEST"), "\(wrong.text)")
    }
}
