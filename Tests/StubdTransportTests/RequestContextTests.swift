import Foundation
@testable import Stubd
import Testing

/// A request body as it arrives in pieces, kept up to the limit, without a socket.
@Suite struct RequestContextTests {
    private func keep(_ context: RequestContext, _ text: String, limit: Int) -> Bool {
        Array(text.utf8).withUnsafeBytes { context.keepBody($0, limit: limit) }
    }

    @Test func piecesUpToTheLimitAreKeptInOrder() {
        let context = RequestContext()
        #expect(keep(context, "hello ", limit: 11))
        #expect(keep(context, "world", limit: 11))
        #expect(String(decoding: context.body, as: UTF8.self) == "hello world")
    }

    @Test func thePiecePastTheLimitDropsTheBody() {
        let context = RequestContext()
        #expect(keep(context, "hello ", limit: 10))
        #expect(!keep(context, "world", limit: 10))
        #expect(context.body.isEmpty, "nothing past the limit is held")
    }
}
