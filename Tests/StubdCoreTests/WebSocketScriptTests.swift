import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// `websocket:` in the manifest and `.ws` files: the script they load into, which messages each
/// match takes, and every mistake placed at its file, line and column.
@Suite struct WebSocketScriptTests {
    @Test func aManifestsWebSocketLoadsItsTimelineRepliesAndClose() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /chat }
                response:
                  websocket:
                    messages: [{ text: hi }, { json: { n: 1 }, after: 2s }, { binary: AAEC, after: 1m }]
                    replies:
                      - { match: { text: ping }, send: { text: pong } }
                      - { match: { regex: "^sub [a-z]+$" }, send: [{ text: a }, { text: b, after: 10ms }], close: { code: 4001 } }
                      - { match: { json: { type: join } }, send: { text: joined } }
                      - { match: any, send: { text: "?" } }
                    close: { code: 1001, reason: bye, after: 1h }
                    maxMessageBytes: 4096
            """])
        let catalog = try stubs.load()
        let script = try #require(catalog.routes.first { $0.pattern.text == "/chat" }?.responses.first?.webSocket)
        #expect(script.messages == [WebSocketScriptMessage(.text("hi")), WebSocketScriptMessage(.text("{\"n\":1}"), after: .seconds(2)),
                                    WebSocketScriptMessage(.binary([0, 1, 2]), after: .seconds(60))])
        #expect(script.close == WebSocketScriptClose(code: 1001, reason: "bye", after: .seconds(3600)))
        #expect(script.maxMessageBytes == 4096)
        func answer(_ m: WebSocketMessage) -> [WebSocketPayload]? { script.reply(to: m)?.send.map(\.payload) }
        #expect(answer(.text("ping")) == [.text("pong")])
        #expect(answer(.text("sub scores")) == [.text("a"), .text("b")])
        #expect(script.reply(to: .text("sub scores"))?.close?.code == 4001)
        #expect(answer(.text(#"{"type": "join", "room": 7}"#)) == [.text("joined")])
        #expect(answer(.text("sub 42")) == [.text("?")])
        #expect(answer(.binary([1])) == [.text("?")])
        #expect(answer(.ping([])) == nil)
    }

    @Test func aWSFileIsAStubAndItsMistakesNameTheFile() throws {
        let stubs = try TempStubs([
            "rooms/lobby.ws": "messages: [{ text: hi }]\n",
            "rooms/broken.ws": "messages: [{ text: hi }]\nreplies:\n  - { match: { txt: ping }, send: { text: pong } }\n",
        ])
        let p = try #require(stubs.problems().first)
        #expect(p.location == "rooms/broken.ws:3:16")
        #expect(p.hint == "did you mean 'text'?")
        try stubs.write("rooms/broken.ws", "close: { code: 1000 }\n")
        let catalog = try stubs.load()
        let route = try #require(catalog.routes.first { $0.source == .convention(file: "rooms/lobby.ws") })
        #expect(route.responses.first?.webSocket?.messages == [WebSocketScriptMessage(.text("hi"))])
        #expect(route.responses.first?.body.isEmpty == true)
    }

    @Test func mistakesInWebSocketAreLoadErrorsAtTheirPlace() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /a }
                response:
                  body: no
                  websocket:
                    mesages: []
                    replies: [{ match: { regex: "(" }, send: { text: x } }]
                    close: { code: 1005 }
            """])
        let found = stubs.problems().map { "\($0.location) \($0.message)" }
        #expect(found.contains { $0.hasPrefix("stubd.yml:4:") && $0.contains("a WebSocket response has no body") })
        #expect(found.contains { $0.hasPrefix("stubd.yml:6:9 ") && $0.contains("unknown key 'mesages' in websocket") })
        #expect(found.contains { $0.contains("'(' is not a regular expression") })
        #expect(found.contains { $0.contains("close code 1005 cannot be sent") })
    }

    /// `protocols:` loads in order; the client's order picks among them, and a stub that declares none
    /// takes the client's first offer.
    @Test func subprotocolsAreChosenByTheClientsOrderAmongThoseTheStubSpeaks() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /graphql }
                response: { websocket: { protocols: [graphql-transport-ws, graphql-ws] } }
              - request: { path: /one }
                response: { websocket: { protocols: v2.chat.example.com } }
            """])
        let catalog = try stubs.load()
        let script = try #require(catalog.routes.first { $0.pattern.text == "/graphql" }?.responses.first?.webSocket)
        #expect(script.protocols == ["graphql-transport-ws", "graphql-ws"])
        #expect(catalog.routes.first { $0.pattern.text == "/one" }?.responses.first?.webSocket?.protocols == ["v2.chat.example.com"])
        let offers = WebSocketSubprotocol.offers(["graphql-ws, other", "graphql-transport-ws"])
        #expect(offers == ["graphql-ws", "other", "graphql-transport-ws"])
        #expect(WebSocketSubprotocol.choose(offered: offers, spoken: script.protocols) == .agreed("graphql-ws"))
        #expect(WebSocketSubprotocol.choose(offered: ["mqtt"], spoken: script.protocols)
                == .refused(offered: ["mqtt"], spoken: ["graphql-transport-ws", "graphql-ws"]))
        #expect(WebSocketSubprotocol.choose(offered: [], spoken: script.protocols) == .none)
        #expect(WebSocketSubprotocol.choose(offered: ["mqtt", "wamp"], spoken: []) == .agreed("mqtt"))
        #expect(WebSocketSubprotocol.choose(offered: ["GraphQL-WS"], spoken: ["graphql-ws"]) == .refused(offered: ["GraphQL-WS"], spoken: ["graphql-ws"]))
    }

    @Test func aSubprotocolThatIsNotATokenIsALoadErrorAtItsPlace() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: /a }
                response:
                  websocket:
                    protocols: [chat, "two words", "a,b", chat]
            """])
        let found = stubs.problems().map { "\($0.location) \($0.message)" }
        #expect(found.contains { $0.hasPrefix("stubd.yml:5:27 ") && $0.contains("'two words' is not a subprotocol name") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("stubd.yml:5:40 ") && $0.contains("'a,b' is not a subprotocol name") }, "\(found)")
        #expect(found.contains { $0.contains("subprotocol 'chat' is listed twice") }, "\(found)")
        #expect(found.count == 3, "\(found)")
    }
}
