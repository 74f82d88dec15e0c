import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

@Suite struct PathSegmentTests {
    @Test(arguments: [("/a/b/c", 0, "a"), ("//a//b/", 1, "b"), ("/a/b", 2, nil), ("/", 0, nil)])
    func pathSegmentsAreFoundWithoutSplitting(path: String, index: Int, expected: String?) {
        #expect(PathPattern.segment(index, of: path).map(String.init) == expected)
    }
}
