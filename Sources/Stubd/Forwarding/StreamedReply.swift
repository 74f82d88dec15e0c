import CMicroHTTPD
import Foundation

/// The content reader's context: the body and the connection it goes to.
final class StreamedReply: @unchecked Sendable {
    let body: StreamedBody
    let connection: OpaquePointer
    unowned let router: RequestRouter

    init(body: StreamedBody, connection: OpaquePointer, router: RequestRouter) {
        self.body = body
        self.connection = connection
        self.router = router
    }

    static let reader: MHD_ContentReaderCallback = { cls, _, buffer, max in
        let reply = Unmanaged<StreamedReply>.fromOpaque(cls!).takeUnretainedValue()
        return reply.body.read(into: buffer!, max: max) {
            guard let context = reply.router.suspendUntilResumed(reply.connection) else { return nil }
            let router = reply.router
            return { router.resume(context) }
        }
    }

    /// The answer is over or the client left: a download still going stops.
    static let release: MHD_ContentReaderFreeCallback = { cls in
        let reply = Unmanaged<StreamedReply>.fromOpaque(cls!).takeRetainedValue()
        reply.body.abandon()
    }
}
