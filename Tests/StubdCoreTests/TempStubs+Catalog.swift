import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

extension TempStubs {
    func load() throws -> StubCatalog { try StubCatalog.load(stubs: url) }

    /// The problems a load reports (fails the caller when it loads cleanly).
    func problems() -> [LoadProblem] {
        do { _ = try StubCatalog.load(stubs: url); return [] } catch { return error.problems }
    }
}
