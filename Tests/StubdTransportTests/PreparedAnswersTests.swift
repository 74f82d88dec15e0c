import Foundation
import HTTPTypes
@testable import Stubd
import StubdEngine
import Testing

/// `PreparedAnswers`: libmicrohttpd's form of a catalog's canned answers, kept by the front (the
/// engine's answers hold nothing of the transport) and found by the answer's identity.
@Suite struct PreparedAnswersTests {
    /// A catalog of 1,500 routes, one of them with a second media type (`content:`): each answer and
    /// each alternative is found, its own, and an answer the catalog does not hold (a runtime stub's,
    /// one of the catalog a reload made) is not.
    @Test func everyAnswerOfTheCatalogIsFoundAndNoOtherIs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prepared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for i in 0..<1_500 { try Data("{\"n\": \(i)}".utf8).write(to: folder.appendingPathComponent("r\(i).json")) }
        try Data("""
            routes:
              - request: { path: /report }
                response: { status: 201, content: { application/json: { json: { t: 3 } }, text/csv: { body: "t\\n3\\n" } } }
            """.utf8).write(to: folder.appendingPathComponent("stubd.yml"))
        let catalog = try StubCatalog.load(stubs: folder)
        let answers = PreparedAnswers(catalog)
        var found = Set<ObjectIdentifier>()
        for canned in catalog.responses {
            for answer in [canned] + canned.alternatives {
                let prepared = try #require(answers.lookUp(answer))
                #expect(prepared.length == answer.body.count && answers.lookUp(answer) === prepared)
                found.insert(ObjectIdentifier(prepared))
            }
        }
        // One of its own for each.
        #expect(found.count == 1_502)
        #expect(answers.lookUp(CannedResponse(status: .ok, headers: [:], body: Data())) == nil)
        // A changed folder loads as a new catalog of new answers: none is found until its own table is made.
        try Data("{\"n\": \"changed\"}".utf8).write(to: folder.appendingPathComponent("r7.json"))
        let reloaded = try StubCatalog.load(stubs: folder)
        #expect(reloaded.responses.count == 1_501 && reloaded.responses.allSatisfy { answers.lookUp($0) == nil })
        #expect(PreparedAnswers(reloaded).lookUp(reloaded.responses[0]) != nil)
    }
}
