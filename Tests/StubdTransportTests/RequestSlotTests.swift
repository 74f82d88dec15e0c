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

    @Test func aLoggedPlainRequestKeepsWhenItArrivedAndNoObject() {
        // The log on, the hot path still allocates nothing of ours: the head's time is the pointer's bits.
        let since: UInt64 = 1_234_567_890_123
        let raw = RequestSlot.plainLogged(since: since).raw
        guard case .plainLogged(let back) = RequestSlot(raw) else { Issue.record("plainLogged came back as something else"); return }
        #expect(back == since)
        #expect(RequestSlot(raw).loggedSince == since && RequestSlot.plain.loggedSince == nil)
        #expect(raw.map { UInt(bitPattern: $0) & 0xF } == 0x7, "odd: never an object's address")
        RequestSlot.release(raw)
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
