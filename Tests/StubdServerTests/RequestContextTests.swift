import Foundation
@testable import Stubd
import Testing

/// A request body as it arrives in pieces, kept up to the limit, without a socket.
@Suite struct RequestContextTests {
    private func receive(_ context: RequestContext, _ text: String, limit: Int) {
        Array(text.utf8).withUnsafeBytes { context.receiveBody($0, limit: limit) }
    }

    @Test func piecesUpToTheLimitAreKeptInOrder() {
        let context = RequestContext()
        receive(context, "hello ", limit: 11)
        receive(context, "world", limit: 11)
        #expect(String(decoding: context.body, as: UTF8.self) == "hello world")
        #expect(!context.bodyTooLarge)
        let phase = context.lifecycle.phase
        #expect(phase == .body)
    }

    @Test func theFirstBytePastTheLimitDropsTheBodyAndLaterPiecesAreNotKept() {
        let context = RequestContext()
        receive(context, "hello ", limit: 10)
        receive(context, "world", limit: 10)
        #expect(context.bodyTooLarge)
        #expect(context.body.isEmpty, "nothing past the limit is held")
        receive(context, "x", limit: 10)
        #expect(context.body.isEmpty)
    }
}
