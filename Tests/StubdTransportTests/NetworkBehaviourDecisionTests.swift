import Foundation
import HTTPTypes
@testable import Stubd
import StubdCore
import StubdEngine
import StubdProtocol
import Testing

/// Which hold and which delivery a stub's behaviours get, decided without a socket (the wire side
/// is DelayTests, FaultTests and ThrottleTests).
@Suite struct NetworkBehaviourDecisionTests {
    private func canned(delay: Delay? = nil, fault: Fault? = nil, rate: Int? = nil) -> CannedResponse {
        CannedResponse(status: 200, headers: [:], body: Data("{}".utf8), delay: delay, fault: fault, bytesPerSecond: rate)
    }

    @Test func aPlainAnswerIsNeitherHeldNorChanged() {
        #expect(NetworkBehaviour.hold(for: canned()) == nil)
        #expect(NetworkBehaviour.delivery(for: canned()) == .whole)
    }

    @Test func aHangIsHeldForFiveMinutesAndWinsOverADelay() {
        let hold = NetworkBehaviour.hold(for: canned(delay: .fixed(.milliseconds(20)), fault: .hang))
        #expect(hold == .hang)
        #expect(hold?.nanoseconds == 300_000_000_000)
    }

    @Test func aDelayIsHeldForItsSampleThenTheFaultOrThrottleApplies() {
        let hold = NetworkBehaviour.hold(for: canned(delay: .fixed(.milliseconds(20)), fault: .emptyResponse))
        #expect(hold == .delay(nanoseconds: 20_000_000))
        #expect(NetworkBehaviour.delivery(for: canned(delay: .fixed(.milliseconds(20)), rate: 100)) == .throttled(bytesPerSecond: 100))
    }

    @Test func aFaultWinsOverAThrottle() {
        for fault in Fault.allCases {
            #expect(NetworkBehaviour.delivery(for: canned(fault: fault, rate: 100)) == .fault(fault))
        }
    }
}
