import Foundation
import StubdTestSupport
import Testing

/// `stubd check --spec` naming the `contains` bound a stub breaks and taking a discriminator's
/// inline branch; no server started. Split from ContainsAndDiscriminatorTests, which serves them.
@Suite struct ContainsAndDiscriminatorCheckTests {
    @Test func checkNamesTheBoundAStubBreaksAndTakesAnInlineBranch() throws {
        let folder = try TempStubs(["spec.yaml": ContainsAndDiscriminatorTests.spec])
        let spec = folder.url.appendingPathComponent("spec.yaml")
        let stubs = try TempStubs([
            "tags.json": #"["urgent", "urgent", "urgent", "urgent"]"#,
            "untagged.json": "[1, 2]",
            "pets/1.json": #"{"kind": "dog", "barks": true}"#,
        ])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", spec.path])
        #expect(r.status == 1)
        #expect(r.error.contains("2 problems"), "\(r.error)")
        #expect(r.error.contains("tags.json:1:1: GET /tags 200: the body: expected at most 3 items matching the schema at #/paths/~1tags/get/responses/200/content/application~1json/schema/contains, got 4"),
                "\(r.error)")
        #expect(r.error.contains("untagged.json:1:1: GET /untagged 200: the body: expected at least one item matching the schema"), "\(r.error)")
        #expect(!r.error.contains("pets/1.json"), "an inline branch is taken: \(r.error)")
    }
}
