import Foundation
@testable import Stubd
import StubdProtocol
import Testing

/// A request's life on a connection, checked without a socket: which of libmicrohttpd's calls and
/// which resumers may move it, and that a connection is resumed at most once.
@Suite struct RequestLifecycleTests {
    @Test func aRequestWithABodyGoesHeadersBodyAnsweringSuspendedResumedAnsweringDone() {
        var life = RequestLifecycle()
        #expect(life.phase == .headers)
        let moved1 = life.receiveBody()
        #expect(moved1)
        let moved2 = life.receiveBody()
        #expect(moved2)
        #expect(life.phase == .body)
        let moved3 = life.answer()
        #expect(moved3)
        #expect(life.phase == .answering)
        let moved4 = life.suspend()
        #expect(moved4)
        #expect(life.phase == .suspended)
        let moved5 = life.resume()
        #expect(moved5)
        #expect(life.phase == .resumed)
        let moved6 = life.answer()
        #expect(moved6, "the call after a resume finishes what was pending")
        #expect(life.phase == .answering)
        life.complete()
        #expect(life.phase == .done)
    }

    @Test func aRequestWithoutABodyGoesStraightToAnswering() {
        var life = RequestLifecycle()
        let moved7 = life.answer()
        #expect(moved7)
        #expect(life.phase == .answering)
    }

    @Test func onlyTheFirstResumerResumes() {
        var life = RequestLifecycle(.answering)
        let moved8 = life.suspend()
        #expect(moved8)
        let moved9 = life.resume()
        #expect(moved9, "the timer")
        let moved10 = life.resume()
        #expect(!moved10, "stop() after the timer: resuming twice makes libmicrohttpd abort")
        let moved11 = life.resume()
        #expect(!moved11, "the waiter after the timeout")
    }

    @Test func aConnectionNotSuspendedIsNotResumed() {
        for phase in [RequestLifecycle.Phase.headers, .body, .answering, .resumed, .done] {
            var life = RequestLifecycle(phase)
            let moved12 = life.resume()
            #expect(!moved12, "resumed in \(phase)")
            #expect(life.phase == phase)
        }
    }

    @Test func onlyAnAnsweringRequestIsSuspended() {
        for phase in [RequestLifecycle.Phase.headers, .body, .suspended, .resumed, .done] {
            var life = RequestLifecycle(phase)
            let moved13 = life.suspend()
            #expect(!moved13, "suspended in \(phase)")
            #expect(life.phase == phase)
        }
    }

    @Test func noBodyIsTakenOnceTheAnswerIsUnderWay() {
        for phase in [RequestLifecycle.Phase.answering, .suspended, .resumed, .done] {
            var life = RequestLifecycle(phase)
            let moved14 = life.receiveBody()
            #expect(!moved14, "body taken in \(phase)")
            #expect(life.phase == phase)
        }
    }

    @Test func aSuspendedAnswerIsNotAnsweredAgainUntilResumed() {
        var life = RequestLifecycle(.answering)
        let moved15 = life.answer()
        #expect(!moved15, "answering twice")
        let moved16 = life.suspend()
        #expect(moved16)
        let moved17 = life.answer()
        #expect(!moved17, "answered while suspended")
    }

    @Test func aTimerAfterTheClientLeftResumesNothing() {
        var life = RequestLifecycle(.answering)
        let moved18 = life.suspend()
        #expect(moved18)
        life.complete()
        let moved19 = life.resume()
        #expect(!moved19, "a hang's five-minute timer after the request completed")
        #expect(life.phase == .done)
    }

    @Test func manyThreadsRacingToResumeAContextResumeItOnce() {
        for _ in 0..<200 {
            let context = RequestContext(phase: .answering)
            let suspended = context.lifecycle.move { $0.suspend() }
            #expect(suspended)
            let wins = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                if context.lifecycle.move({ $0.resume() }) { wins.withLock { $0 += 1 } }
            }
            #expect(wins.withLock { $0 } == 1)
        }
    }
}
