import Foundation
@testable import Stubd
import Testing

/// The per-request pointer libmicrohttpd keeps for us, read back as what was stored, without a socket.
@Suite struct RequestSlotTests {
    @Test func eachMarkerComesBackAsItWentIn() {
        #expect(RequestSlot.empty.raw == nil)
        guard case .empty = RequestSlot(nil) else { Issue.record("nil is not empty"); return }
        guard case .plain = RequestSlot(RequestSlot.plain.raw) else { Issue.record("plain came back as something else"); return }
        guard case .nulInPath = RequestSlot(RequestSlot.nulInPath.raw) else { Issue.record("nulInPath came back as something else"); return }
        #expect(RequestSlot.plain.raw != RequestSlot.nulInPath.raw)
    }

    @Test func aPlainRequestStoresNoObject() {
        // The hot path: the marker is a bit pattern, not an allocation, and there is nothing to release.
        let raw = RequestSlot.plain.raw
        #expect(raw.map { UInt(bitPattern: $0) } == 1)
        RequestSlot.release(raw)
        RequestSlot.release(RequestSlot.nulInPath.raw)
        RequestSlot.release(nil)
    }

    @Test func aTrackedContextIsTheSameObjectAndLivesUntilReleased() {
        weak var weakContext: RequestContext?
        var raw: UnsafeMutableRawPointer?
        do {
            let context = RequestContext()
            weakContext = context
            raw = RequestSlot.tracked(context).raw
        }
        do {
            guard case .tracked(let back) = RequestSlot(raw) else { Issue.record("a context came back as a marker"); return }
            #expect(back === weakContext)
        }
        #expect(weakContext != nil, "the slot holds the context")
        RequestSlot.release(raw)
        #expect(weakContext == nil, "released by the completion notice")
    }
}
