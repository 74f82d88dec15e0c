import Foundation
import StubdTestSupport
import Testing

/// `stubd import postman` on collections it cannot take: nothing written, every problem named. No
/// server started; split from PostmanImportTests, which serves what the import wrote.
@Suite struct PostmanImportRefusalTests {
    @Test func badCollectionsWriteNothingAndNameEveryProblem() throws {
        let dir = try WireMockImportTests.freshFolder()
        let traversal = try PostmanImportTests.importCollection("traversal.postman_collection.json", dir)
        #expect(traversal.status == 1)
        #expect(traversal.error.contains("/item/0/item/0/response/0/originalRequest/url: the path segment '..' is '..', '.' or holds '/'"), "\(traversal.error)")
        #expect(traversal.error.contains("/item/1/response/0/code: not an HTTP status"), "\(traversal.error)")
        #expect(traversal.error.contains("nothing written"))
        #expect(try WireMockImportTests.nothingIn(dir))

        // A WireMock mapping is not a collection; a truncated collection; one over --max-size.
        let mapping = try run(stubdBinary.path, ["import", "postman", WireMockImportTests.fixtures.appendingPathComponent("docker-hello/stubs/mappings/hello.json").path,
                                                 "--stubs", dir.path])
        #expect(mapping.status == 1 && mapping.error.contains("hello.json: not a Postman collection"), "\(mapping.error)")
        let scratch = try TempStubs([:]).url
        let truncated = scratch.appendingPathComponent("cut.json")
        try Data(try Data(contentsOf: PostmanImportTests.fixtures.appendingPathComponent("wise-payouts.postman_collection.json")).prefix(5000)).write(to: truncated)
        let cut = try run(stubdBinary.path, ["import", "postman", truncated.path, "--stubs", dir.path])
        #expect(cut.status == 1 && cut.error.contains("cut.json:") && cut.error.contains("is the file truncated?"), "\(cut.error)")
        let big = scratch.appendingPathComponent("big.json")
        try Data(("{\"info\": {}, \"item\": [], \"pad\": \"" + String(repeating: "x", count: 1_100_000) + "\"}").utf8).write(to: big)
        let oversize = try run(stubdBinary.path, ["import", "postman", big.path, "--stubs", dir.path, "--max-size", "1"])
        #expect(oversize.status == 1 && oversize.error.contains("big.json is 1 MiB, over the 1 MiB --max-size"), "\(oversize.error)")
        #expect(try WireMockImportTests.nothingIn(dir))
    }
}
