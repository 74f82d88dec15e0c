import Foundation
@testable import StubdEngine

/// What a server makes of a client's bytes: the messages, in order, and the refusal that ended the
/// connection, if one did.
private struct Outcome: Equatable {
    var messages: [WebSocketMessage] = []
    var refusal: WebSocketProtocolError?
}

/// The decoder's answer to one piece: the frames it completed, then the refusal, if any.
private func feed(_ decoder: inout WebSocketFrameDecoder, _ bytes: some Collection<UInt8>) -> (frames: [WebSocketFrame], refusal: WebSocketProtocolError?) {
    decoder.append(bytes)
    var frames: [WebSocketFrame] = []
    do {
        while let frame = try decoder.next() { frames.append(frame) }
        return (frames, nil)
    } catch {
        return (frames, error)
    }
}

/// The decoder and the assembler as the connection drives them, fed `chunks` one after the other.
private func read(_ chunks: [ArraySlice<UInt8>], maxBytes: Int) -> Outcome {
    var decoder = WebSocketFrameDecoder(maxFrameBytes: maxBytes)
    var assembler = WebSocketMessageAssembler(maxMessageBytes: maxBytes)
    var outcome = Outcome()
    for chunk in chunks {
        let fed = feed(&decoder, chunk)
        for frame in fed.frames {
            // Re-encoded as a client would send it, the frame decodes to itself.
            var again = WebSocketFrameDecoder(maxFrameBytes: maxBytes)
            let echo = feed(&again, frame.bytes(mask: (0xA5, 0x00, 0xFF, 0x3C)))
            precondition(echo.frames == [frame] && echo.refusal == nil, "\(frame) did not survive encoding")
            do throws(WebSocketProtocolError) {
                if let message = try assembler.add(frame) { outcome.messages.append(message) }
            } catch {
                outcome.refusal = error
                return outcome
            }
        }
        if let refusal = fed.refusal {
            outcome.refusal = refusal
            // Refused once, the decoder reads nothing more.
            let after = feed(&decoder, [0x81, 0x80, 0, 0, 0, 0])
            precondition(after.frames.isEmpty && after.refusal == nil, "decoded after a refusal")
            return outcome
        }
    }
    return outcome
}

/// Any bytes, cut into any pieces, as a client's side of a WebSocket: the decoder and the assembler
/// never trap or hang, every refusal carries a close code a server may send for it (1002 protocol
/// error, 1007 bad UTF-8, 1009 too big), and how the bytes were cut (TCP's segments) changes nothing:
/// the same messages and the same refusal as when they come in one piece.
///
/// The input's first byte picks the size limit, its second seeds the cuts; the rest is the stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let input = UnsafeBufferPointer(start: bytes, count: size)
    let limits = [0, 1, 2, 125, 126, 300, 65_535, 1 << 20]
    let maxBytes = limits[Int(input[0] & 7)]
    let stream = Array(input[2...])

    let whole = read([stream[...]], maxBytes: maxBytes)
    if let refusal = whole.refusal {
        precondition([1002, 1007, 1009].contains(refusal.code), "refused with close code \(refusal.code): \(refusal.reason)")
        precondition(WebSocketMessageAssembler.isSendable(refusal.code) && !refusal.reason.isEmpty)
    }

    // Pieces of 1 to 16 bytes, their lengths from a small generator seeded by the second byte.
    var seed = UInt32(input[1]) | 0x100
    var chunks: [ArraySlice<UInt8>] = []
    var start = stream.startIndex
    while start < stream.endIndex {
        seed = seed &* 1_103_515_245 &+ 12_345
        let length = Int((seed >> 16) & 15) + 1
        let end = min(stream.endIndex, start + length)
        chunks.append(stream[start..<end])
        start = end
    }
    let cut = read(chunks, maxBytes: maxBytes)
    precondition(cut == whole, "in pieces \(cut), in one piece \(whole)")
    let bytewise = read(stream.indices.map { stream[$0...$0] }, maxBytes: maxBytes)
    precondition(bytewise == whole, "a byte at a time \(bytewise), in one piece \(whole)")
    return 0
}

/// SwiftPM links an executable's entry point as `FuzzWebSocketFrames_main`; libFuzzer's driver takes it from here.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzWebSocketFrames_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzWebSocketFrames)
}
