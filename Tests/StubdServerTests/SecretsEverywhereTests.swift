import Foundation
import StubdProtocol
import StubdTestSupport
import Testing

/// Issue 57's probe, on the wire: a session's secrets sent as a client sends them (JSON written with
/// escapes, camelCase and snake_case token fields, a short password, a password a template echoes,
/// a WebSocket's handshake token repeated in a message, a password quoted by an unmatched request's
/// explanation), then `stubd export har` and `GET /__stubd/requests` searched for every spelling.
@Suite struct SecretsEverywhereTests {
    static let stubs: [String: String] = [
        "stubd.yml": """
            routes:
              - name: login
                request: { method: POST, path: /login }
                response: { status: 200, template: true, headers: { Content-Type: application/json }, body: '{"echo": "{{request.body}}"}' }
              - name: signup
                request: { method: POST, path: /signup, body: { json: { plan: pro } } }
                response: { status: 201 }

            """ + chatRoute(),
    ]

    /// Each secret as the server decodes it, and the request body (as written on the wire) that sends it.
    static let jsonSecrets: [(secret: String, body: String)] = [
        ("pass/word9", #"{"user": "ann", "password": "pass\/word9"}"#),
        (#"pa"ss42x"#, #"{"user": "ann", "password": "pa\"ss42x"}"#),
        ("cafépass1", #"{"user": "ann", "password": "caf\u00e9pass1"}"#),
        ("acc-7f3e9b21", #"{"auth": {"accessToken": "acc-7f3e9b21"}}"#),
        ("ref-2c8d4a6e", #"{"refresh_token": "ref-2c8d4a6e"}"#),
        ("sec-9a1b3c5d", #"{"client": {"secret": "sec-9a1b3c5d"}}"#),
        ("echo-pw-8812", #"{"password": "echo-pw-8812"}"#),
    ]
    static let shortPassword = "x9"
    static let nearMissPassword = "near-pw-4455"
    static let socketBearer = "wsbear-1234abcd", socketQueryToken = "wsq-5678efgh"

    /// The spellings a secret takes in JSON text, once or twice escaped, and in a URL.
    static func spellings(_ secret: String) -> Set<String> {
        var out: Set<String> = [secret, secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret]
        for slash in [false, true] {
            for unicode in [false, true] {
                let once = escaped(secret, slash: slash, unicode: unicode)
                out.insert(once)
                out.insert(escaped(once, slash: slash, unicode: unicode))
            }
        }
        return out
    }

    static func escaped(_ text: String, slash: Bool, unicode: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where slash: out += "\\/"
            case _ where scalar.value > 0x7F && unicode: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Every string in a JSON document, and in the JSON documents its strings hold (a HAR's bodies).
    static func strings(in value: Any) -> [String] {
        switch value {
        case let text as String:
            guard let nested = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]), !(nested is String) else { return [text] }
            return [text] + strings(in: nested)
        case let items as [Any]: return items.flatMap(strings(in:))
        case let members as [String: Any]: return members.flatMap { [$0.key] + strings(in: $0.value) }
        default: return []
        }
    }

    static func send(_ url: URL, _ body: String) throws {
        _ = try curl(["-s", "-o", "/dev/null", "-H", "Content-Type: application/json", "--data-binary", body, url.absoluteString])
    }

    @Test func noSecretOfTheProbeShowsInTheHAROrTheJournal() throws {
        try requirePython(modules: "websockets")
        let serve = try ServeProcess(serving: Self.stubs)
        let session = serve.baseURL.appendingPathComponent("__s/p57")
        for (_, body) in Self.jsonSecrets { try Self.send(session.appendingPathComponent("login"), body) }
        try Self.send(session.appendingPathComponent("login"), #"{"user": "ann", "password": "\#(Self.shortPassword)"}"#)
        try Self.send(session.appendingPathComponent("signup"), #"{"plan": "free", "password": "\#(Self.nearMissPassword)"}"#)
        let socket = #"""
            import asyncio, sys, websockets
            async def main():
                url = f"ws://127.0.0.1:{sys.argv[1]}/__s/p57/chat?token=\#(Self.socketQueryToken)"
                async with websockets.connect(url, additional_headers={"Authorization": "Bearer \#(Self.socketBearer)"}) as ws:
                    assert await ws.recv() == "welcome"
                    await ws.send("my token is \#(Self.socketQueryToken), my bearer \#(Self.socketBearer)")
                    await ws.send('{"token": "\#(Self.socketQueryToken)"}')
                    await ws.send("ping"); assert await ws.recv() == "pong"
                print("ok")
            asyncio.run(main())
            """#
        let r = try run(testPython, ["-c", socket, String(serve.port)])
        #expect(r.output == "ok\n", "\(r.output)\(r.error)")

        let har = try TempStubs([:]).url.appendingPathComponent("p57.har")
        let exported = try run(stubdBinary.path, ["export", "har", "--url", serve.baseURL.absoluteString, "--session", "p57", "-o", har.path])
        #expect(exported.status == 0, "\(exported.error)")
        let harText = try String(contentsOf: har, encoding: .utf8)
        let journalText = try curl(["-s", session.absoluteString + "/__stubd/requests"]).output
        // What was sent is there, masked: the journal lists every request and the socket's messages.
        let journal = try JSONDecoder().decode(JournalReport.self, from: Data(journalText.utf8))
        #expect(journal.requests.count == Self.jsonSecrets.count + 3, "\(journalText)")
        #expect(journal.requests.first { $0.route == "chat" }?.messages?.count == 5, "\(journalText)")
        #expect(journal.requests.contains { $0.nearest?.isEmpty == false }, "the miss is explained: \(journalText)")

        let secrets = Self.jsonSecrets.map(\.secret) + [Self.nearMissPassword, Self.socketBearer, Self.socketQueryToken]
        for (name, text) in [("the HAR", harText), ("the journal", journalText)] {
            let decoded = Self.strings(in: try JSONSerialization.jsonObject(with: Data(text.utf8)))
            for secret in secrets {
                for spelling in Self.spellings(secret) {
                    #expect(!text.contains(spelling), "\(spelling) in \(name)")
                    #expect(!decoded.contains { $0.contains(spelling) }, "\(spelling), decoded, in \(name)")
                }
            }
            for spelling in Self.spellings(#""\#(Self.shortPassword)""#) { #expect(!text.contains(spelling), "the short password in \(name)") }
        }
    }
}
