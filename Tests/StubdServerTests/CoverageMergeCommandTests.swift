import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import Stubd
import StubdClient
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing

/// `stubd coverage merge` and `coverage show --from` on report files a user might hand them (huge,
/// negative or unreadable counts), no server started. Split from CoverageCommandTests.
@Suite struct CoverageMergeCommandTests {
    /// Before: `arithmetic overflow`, SIGILL (exit 132). Counts stop at the largest Int instead.
    @Test func mergingHugeCountsSaturatesInsteadOfCrashing() throws {
        let big = try CoverageCommandTests.shard(hits: "9223372036854775807"), one = try CoverageCommandTests.shard(hits: "1")
        let r = try run(stubdBinary.path, ["coverage", "merge", big.path, big.path, one.path])
        #expect(r.status == 0, "\(r.error)")
        let merged = try JSONDecoder().decode(CoverageReport.self, from: Data(r.output.utf8))
        #expect(merged.routes.first?.hits == Int.max)
        #expect(merged.routes.first?.items.first?.hits == Int.max)
    }

    /// Before: accepted, and `-5` took 3 real hits to `-2`.
    @Test func aNegativeHitCountIsRefusedNamingTheFileAndThePlace() throws {
        let real = try CoverageCommandTests.shard(hits: "3"), negative = try CoverageCommandTests.shard(hits: "-5")
        let r = try run(stubdBinary.path, ["coverage", "merge", real.path, negative.path])
        #expect(r.status == 1)
        #expect(r.error.contains("stubd coverage: \(negative.path): routes[0].hits (GET /a) is -5; a hit count is a whole number from 0 to 9223372036854775807"), "\(r.error)")
        #expect(r.output.isEmpty)
    }

    /// `1e300` is valid JSON; before, the file was called "not valid JSON". A real syntax error is placed.
    @Test func aCountNoIntHoldsIsNamedAndASyntaxErrorIsPlaced() throws {
        let huge = try CoverageCommandTests.shard(hits: "1e300")
        let r = try run(stubdBinary.path, ["coverage", "merge", huge.path])
        #expect(r.status == 1)
        #expect(r.error.contains("\(huge.path): routes[0].hits is 1e+300; a hit count is a whole number from 0 to 9223372036854775807"), "\(r.error)")
        #expect(!r.error.contains("not valid JSON"), "\(r.error)")
        let broken = try CoverageCommandTests.shard(hits: "1,,")
        let b = try run(stubdBinary.path, ["coverage", "show", "--from", broken.path])
        #expect(b.status == 1)
        #expect(b.error.contains("\(broken.path): line 2, column"), "\(b.error)")
        #expect(b.error.contains("not valid JSON: unexpected"), "\(b.error)")
    }
}
