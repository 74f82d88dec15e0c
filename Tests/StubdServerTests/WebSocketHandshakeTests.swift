import Foundation
import Testing
@testable import Stubd

/// The opening handshake alone: RFC 6455's example key, and what a request that is not one is told.
@Suite struct WebSocketHandshakeTests {
    @Test func theAcceptIsTheRFCsExample() {
        // §1.3: this key gives this accept.
        #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func aRequestThatIsNotAHandshakeIsToldWhatItLacks() {
        func status(_ method: String = "GET", upgrade: String? = "websocket", connection: String? = "keep-alive, Upgrade",
                    key: String? = "dGhlIHNhbXBsZSBub25jZQ==", version: String? = "13") -> Int {
            switch WebSocketHandshake.accept(method: method, upgrade: upgrade, connection: connection, key: key, version: version) {
            case .accept: 101
            case .refuse(let r): r.status.code
            }
        }
        #expect(status() == 101)
        #expect(status(upgrade: nil) == 426)
        #expect(status(connection: "keep-alive") == 426)
        #expect(status("POST") == 400)
        #expect(status(version: "8") == 426)
        #expect(status(key: "short") == 400)
        #expect(status(key: nil) == 400)
    }
}
