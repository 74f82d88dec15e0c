import Foundation
import Stubd
import StubdTestSupport
import Synchronization
import Testing

final class StopFlag: Sendable {
    let value = Atomic<Bool>(false)
}
