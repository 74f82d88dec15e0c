import Foundation
import HTTPTypes
import Testing
@testable import Stubd

/// The opening handshake alone: RFC 6455's example key, and what a request that is not one is told.
@Suite struct WebSocketHandshakeTests {
    @Test func theAcceptIsTheRFCsExample() {
        // §1.3: this key gives this accept.
        #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        // FIPS 180's own examples for the SHA-1 it rests on (one block, two blocks, empty).
        func hex(_ text: String) -> String { SHA1.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
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
