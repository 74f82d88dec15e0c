import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine

/// The frame codec alone, on RFC 6455's own examples (§5.7) and on what a hostile client sends:
/// each refusal carries the close code a server must answer with.
@Suite struct WebSocketFrameCodecTests {
    static let mask: (UInt8, UInt8, UInt8, UInt8) = (0x37, 0xFA, 0x21, 0x3D)
    static let hello: [UInt8] = Array("Hello".utf8)

    private func decode(_ bytes: [UInt8], max: Int = 1 << 20) throws(WebSocketProtocolError) -> [WebSocketFrame] {
        var decoder = WebSocketFrameDecoder(maxFrameBytes: max)
        return try decoder.frames(after: bytes)
    }

    private func refusal(_ bytes: [UInt8], max: Int = 1 << 20) -> WebSocketProtocolError? {
        do { _ = try decode(bytes, max: max); return nil } catch { return error }
    }

    @Test func theRFCsExamplesEncodeAsWritten() {
        // §5.7: a single-frame unmasked text message, an unmasked ping, a masked text message, a masked pong.
        #expect(WebSocketFrame(opcode: .text, payload: Self.hello).serverBytes == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(WebSocketFrame(opcode: .ping, payload: Self.hello).serverBytes == [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(WebSocketFrame(opcode: .text, payload: Self.hello).bytes(mask: Self.mask)
                == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(WebSocketFrame(opcode: .pong, payload: Self.hello).bytes(mask: Self.mask)
                == [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        // A fragmented unmasked text message: "Hel", then "lo".
        #expect(WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)).serverBytes == [0x01, 0x03, 0x48, 0x65, 0x6C])
        #expect(WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)).serverBytes == [0x80, 0x02, 0x6C, 0x6F])
        // 256 bytes and 65536 bytes of binary: the 16-bit and 64-bit lengths.
        #expect(Array(WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0, count: 256)).serverBytes.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(Array(WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0, count: 65_536)).serverBytes.prefix(10))
                == [0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
    }

    @Test func aMaskedFrameDecodesInAnyPieces() throws {
        let wire: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(try decode(wire) == [WebSocketFrame(opcode: .text, payload: Self.hello)])
        // A byte at a time: nothing until the last byte, then the frame.
        var decoder = WebSocketFrameDecoder(maxFrameBytes: 100)
        var frames: [WebSocketFrame] = []
        for byte in wire + wire { frames += try decoder.frames(after: [byte]) }
        #expect(frames == [WebSocketFrame(opcode: .text, payload: Self.hello), WebSocketFrame(opcode: .text, payload: Self.hello)])
        // The 16- and 64-bit lengths, masked.
        let long = [UInt8]((0..<70_000).map { UInt8($0 & 0xFF) })
        #expect(try decode(WebSocketFrame(opcode: .binary, payload: long).bytes(mask: (1, 2, 3, 4))) == [WebSocketFrame(opcode: .binary, payload: long)])
        let medium = Array(long.prefix(300))
        #expect(try decode(WebSocketFrame(opcode: .binary, payload: medium).bytes(mask: (9, 8, 7, 6))) == [WebSocketFrame(opcode: .binary, payload: medium)])
    }

    /// A relay (`stubd record`) reads the API's side with the same decoder: a server's frames come
    /// unmasked (§5.1), and one that is masked is refused, as an unmasked one from a client is.
    @Test func aServersFramesDecodeUnmaskedAndAMaskedOneIsRefused() throws {
        var decoder = WebSocketFrameDecoder(maxFrameBytes: 100_000, fromClient: false)
        let medium = [UInt8]((0..<300).map { UInt8($0 & 0xFF) })
        var frames: [WebSocketFrame] = []
        for byte in WebSocketFrame(opcode: .text, payload: Self.hello).serverBytes + WebSocketFrame(opcode: .binary, payload: medium).serverBytes {
            frames += try decoder.frames(after: [byte])
        }
        #expect(frames == [WebSocketFrame(opcode: .text, payload: Self.hello), WebSocketFrame(opcode: .binary, payload: medium)])
        var strict = WebSocketFrameDecoder(maxFrameBytes: 100, fromClient: false)
        #expect(throws: WebSocketProtocolError.self) { try strict.frames(after: WebSocketFrame(opcode: .text, payload: Self.hello).bytes(mask: (1, 2, 3, 4))) }
    }

    @Test func fragmentsMakeOneMessageWithControlFramesBetween() throws {
        var assembler = WebSocketMessageAssembler(maxMessageBytes: 100)
        #expect(try assembler.add(WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8))) == nil)
        #expect(try assembler.add(WebSocketFrame(opcode: .ping, payload: [1])) == .ping([1]))
        #expect(try assembler.add(WebSocketFrame(fin: false, opcode: .continuation, payload: [])) == nil)
        #expect(try assembler.add(WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8))) == .text("Hello"))
        #expect(try assembler.add(WebSocketFrame(opcode: .binary, payload: [0xFF])) == .binary([0xFF]))
        #expect(try assembler.add(WebSocketFrame.close(1000, reason: "bye")) == .close(code: 1000, reason: "bye"))
        #expect(try assembler.add(WebSocketFrame(opcode: .close, payload: [])) == .close(code: nil, reason: ""))
        // A UTF-8 character split between two fragments is whole in the message.
        let snowman = Array("☃".utf8)
        #expect(try assembler.add(WebSocketFrame(fin: false, opcode: .text, payload: [snowman[0]])) == nil)
        #expect(try assembler.add(WebSocketFrame(opcode: .continuation, payload: Array(snowman[1...]))) == .text("☃"))
    }

    @Test func hostileFramesAreRefusedWithTheirCloseCode() {
        // Unmasked: a client must mask (§5.1).
        #expect(refusal([0x81, 0x05] + Self.hello)?.code == 1002)
        // Opcodes 3 and 0xB are reserved; RSV1 set with no extension agreed.
        #expect(refusal([0x83, 0x80, 0, 0, 0, 0])?.code == 1002)
        #expect(refusal([0x8B, 0x80, 0, 0, 0, 0])?.code == 1002)
        #expect(refusal([0xC1, 0x80, 0, 0, 0, 0])?.code == 1002)
        // A control frame over 125 bytes, or fragmented.
        #expect(refusal([0x89, 0xFE, 0x00, 0x7E])?.code == 1002)
        #expect(refusal([0x09, 0x80, 0, 0, 0, 0])?.code == 1002)
        // A length over the limit is refused from the header, before any payload is held.
        #expect(refusal([0x82, 0xFF, 0x80, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], max: 1024)?.code == 1002) // top bit set
        #expect(refusal([0x82, 0xFF, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00], max: 1024)?.code == 1009)
        #expect(refusal([0x82, 0xFE, 0x04, 0x01], max: 1024)?.code == 1009)
        // Nothing is decoded after a refusal.
        var decoder = WebSocketFrameDecoder(maxFrameBytes: 10)
        #expect(throws: WebSocketProtocolError.self) { try decoder.frames(after: [0x81, 0x05]) }
        #expect((try? decoder.frames(after: WebSocketFrame(opcode: .text, payload: [1]).bytes(mask: (1, 1, 1, 1)))) == [])
    }

    /// A good frame and a bad one in one read: the good one first, then the refusal, as when they
    /// come apart. Before, `feed` threw for the read and the good frame was lost, so whether a
    /// client's last message was answered hung on how TCP cut its bytes (Fuzz/FuzzWebSocketFrames).
    @Test func framesBeforeARefusalInOneReadAreDecodedFirst() {
        let ping = WebSocketFrame(opcode: .text, payload: Array("ping".utf8)).bytes(mask: (1, 2, 3, 4))
        let close = WebSocketFrame.close(1000).bytes(mask: (5, 6, 7, 8))
        let unmasked: [UInt8] = [0x81, 0x01, 0x41]
        var decoder = WebSocketFrameDecoder(maxFrameBytes: 100)
        decoder.append(ping + close + unmasked)
        #expect((try? decoder.next()) == WebSocketFrame(opcode: .text, payload: Array("ping".utf8)))
        #expect((try? decoder.next()) == WebSocketFrame.close(1000))
        #expect(throws: WebSocketProtocolError.protocolError("a client frame must be masked")) { try decoder.next() }
        // Then nothing more, whatever comes.
        decoder.append(ping)
        #expect((try? decoder.next()) == .some(nil))
        // A frame cut anywhere comes whole once its last byte does, and not before.
        for cut in 1..<ping.count {
            var pieces = WebSocketFrameDecoder(maxFrameBytes: 100)
            pieces.append(ping[..<cut])
            #expect((try? pieces.next()) == .some(nil))
            pieces.append(ping[cut...])
            #expect((try? pieces.next()) == WebSocketFrame(opcode: .text, payload: Array("ping".utf8)))
        }
    }

    @Test func brokenMessagesAreRefusedWithTheirCloseCode() {
        func code(_ frames: [WebSocketFrame], max: Int = 10) -> UInt16? {
            var assembler = WebSocketMessageAssembler(maxMessageBytes: max)
            do { for f in frames { _ = try assembler.add(f) } } catch { return error.code }
            return nil
        }
        #expect(code([WebSocketFrame(opcode: .continuation, payload: [1])]) == 1002)
        #expect(code([WebSocketFrame(fin: false, opcode: .text, payload: [0x41]), WebSocketFrame(opcode: .text, payload: [0x41])]) == 1002)
        #expect(code([WebSocketFrame(opcode: .text, payload: [0xC3, 0x28])]) == 1007)
        // Over the limit in one frame, or in fragments each under it.
        #expect(code([WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0, count: 11))]) == 1009)
        #expect(code([WebSocketFrame(fin: false, opcode: .binary, payload: [UInt8](repeating: 0, count: 6)),
                      WebSocketFrame(opcode: .continuation, payload: [UInt8](repeating: 0, count: 6))]) == 1009)
        // Close payloads: one byte, a code no frame may carry, a reason that is not UTF-8.
        #expect(code([WebSocketFrame(opcode: .close, payload: [0x03])]) == 1002)
        #expect(code([WebSocketFrame(opcode: .close, payload: [0x03, 0xED])]) == 1002) // 1005
        #expect(code([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8, 0xFF])]) == 1007)
    }

    @Test func aCloseReasonIsCutToFitOnACharacterBoundary() {
        let frame = WebSocketFrame.close(1000, reason: String(repeating: "é", count: 100))
        #expect(frame.payload.count <= 125)
        #expect(String(validating: frame.payload[2...], as: UTF8.self) != nil)
    }
}

extension WebSocketFrameDecoder {
    /// Appends `bytes` and takes every frame they complete (the refusal, if any, thrown after them is lost: tests only).
    mutating func frames(after bytes: some Collection<UInt8>) throws(WebSocketProtocolError) -> [WebSocketFrame] {
        append(bytes)
        var frames: [WebSocketFrame] = []
        while let frame = try next() { frames.append(frame) }
        return frames
    }
}
