#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// The fingerprint that lets a test suite's servers share a catalog reads every directory entry.
@Suite struct CatalogFingerprintTests {
    /// 3,000 entries fill readdir's buffer several times over, so its last entry sits at the buffer's
    /// end. Copying an entry's whole 256-byte name field read past it (AddressSanitizer: heap buffer
    /// overflow in every run; without it, an occasional SIGSEGV when `stubd serve` started on the
    /// browser test's 10,001 files).
    @Test func aFolderBiggerThanReaddirsBufferIsReadWithinIt() throws {
        let stubs = try TempStubs(Dictionary(uniqueKeysWithValues: (0..<3000).map { ("items/i\($0).json", "{}") }))
        defer { try? FileManager.default.removeItem(at: stubs.url) }
        #expect(CatalogCache.fingerprint(of: stubs.url.path)?.count == 3001)
        #expect(try stubs.load().routes.count == 3000)
    }

    @Test func entryNamesAreReadWhole() throws {
        let names = ["a.json", String(repeating: "n", count: 200) + ".json", "é東京.json", ".hidden"]
        let stubs = try TempStubs(Dictionary(uniqueKeysWithValues: names.map { ($0, "{}") }))
        defer { try? FileManager.default.removeItem(at: stubs.url) }
        let handle = try #require(opendir(stubs.url.path))
        defer { closedir(handle) }
        var read: Set<String> = []
        while let entry = readdir(handle) { read.insert(CatalogCache.name(of: entry)) }
        #expect(read == Set(names + [".", ".."]))
    }
}
