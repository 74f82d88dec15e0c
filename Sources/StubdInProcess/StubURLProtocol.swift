import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` an in-process front's configuration names: one class per front and session
/// (`Slot` is its number, see `ProtocolSlot`), answering every http and https request of the
/// sessions made with it, whatever the host. URLSession makes one instance per request.
final class StubURLProtocol<Slot: ProtocolSlot>: URLProtocol {
    /// Set once by `startLoading`, read by `stopLoading` (URLSession calls both on the protocol's thread).
    private var delivery: AnswerDelivery?

    override class func canInit(with request: URLRequest) -> Bool {
        // Every http(s) request, also when the front is gone: answering it with an error beats
        // letting it reach the real host.
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let delivery = AnswerDelivery(protocol: self, client: client, request: request)
        self.delivery = delivery
        guard let (front, session) = SlotTable.front(Slot.number) else {
            return delivery.fail(URLError(.cannotConnectToHost, userInfo: [
                NSLocalizedDescriptionKey: "the stubs this URLSession was made for are closed (its test is over): "
                    + "make the URLSession from the fixture of the test that uses it",
            ]))
        }
        // Off URLSession's thread: an answer can be held (a delay, a long-poll) and a template rendered.
        DispatchQueue.global().async { [request] in
            delivery.carryOut(front.answer(request, session: session))
        }
    }

    override func stopLoading() {
        delivery?.stop()
    }
}

/// Makes `StubURLProtocol<Slot>` for a slot known only at run time.
enum StubURLProtocolClass {
    static func make(_ slot: any ProtocolSlot.Type) -> AnyClass { of(slot) }

    private static func of<Slot: ProtocolSlot>(_ slot: Slot.Type) -> AnyClass { StubURLProtocol<Slot>.self }
}
