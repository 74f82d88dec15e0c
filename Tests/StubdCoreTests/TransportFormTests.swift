import Foundation
import HTTPTypes
import Synchronization
import Testing
@testable import StubdCore
@testable import StubdEngine

/// `CannedResponse.transportForm`: the transport's prepared answer, made once per answer without a
/// lock, and freed with the answer.
@Suite struct TransportFormTests {
    final class Form: Sendable {
        static let made = Atomic<Int>(0)
        static let freed = Atomic<Int>(0)
        init() { Form.made.add(1, ordering: .relaxed) }
        deinit { Form.freed.add(1, ordering: .relaxed) }
    }

    @Test func threadsMakingItAtOnceAllGetTheOneKeptAndNoFormOutlivesItsAnswer() async {
        for _ in 0..<200 {
            let canned = CannedResponse(status: .ok, headers: HTTPFields(), body: Data("{}".utf8))
            let kept = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<8 { group.addTask { ObjectIdentifier(canned.transportForm { Form() }) } }
                return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(kept.count == 1)
        }
        // Every answer above is gone: its form went with it, and so did the forms that lost a race.
        #expect(Form.made.load(ordering: .relaxed) >= 200)
        #expect(Form.freed.load(ordering: .relaxed) == Form.made.load(ordering: .relaxed))
    }
}
