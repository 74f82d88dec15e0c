import Foundation
import StubdTestSupport
import Testing

/// `contains`/`minContains`/`maxContains`, and a discriminator over inline `oneOf` branches, through
/// `stubd openapi import`, `check --spec` and a served answer.
/// `check` alone, which starts no server: ContainsAndDiscriminatorCheckTests.
@Suite struct ContainsAndDiscriminatorTests {
    static let spec = OpenAPISpec.document(
        OpenAPISpec.get("/tags", OpenAPISpec.json(schema: """
            type: array
            items: {type: string}
            contains: {const: urgent}
            minContains: 2
            maxContains: 3
            """, examples: "once: {value: [urgent, later]}")),
        OpenAPISpec.get("/untagged", OpenAPISpec.json(schema: "{type: array, items: {type: integer}, contains: {type: integer, minimum: 10}}")),
        OpenAPISpec.get("/pets/{id}", operation: "parameters: [{name: id, in: path, required: true, schema: {type: string}}]", OpenAPISpec.json(schema: """
            oneOf:
              - {type: object, required: [kind, meows], properties: {kind: {const: cat}, meows: {type: boolean}}}
              - {type: object, required: [kind, barks], properties: {kind: {const: dog}, barks: {type: boolean}}}
            discriminator: {propertyName: kind}
            """)))

    /// Before: the example breaking `minContains` was written and served, the sampled `/untagged`
    /// body had no item ≥ 10, and the discriminator refused every pet ("expected one of nothing").
    @Test func containsBoundsHoldInImportCheckAndServe() async throws {
        let imported = try ImportedSpec(Self.spec)
        let (spec, dir) = (imported.spec, imported.stubs)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.error.contains("GET /tags 200: example 'once' breaks the spec's own schema, left out: (root): expected at least 2 items matching the schema at #/paths/~1tags/get/responses/200/content/application~1json/schema/contains, got 1"),
                "\(imported.error)")
        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path, "--spec", spec.path])
        #expect(check.status == 0, "\(check.error)")

        let serve = try ServeProcess(["--stubs", dir.path, "--spec", spec.path])
        let tags = try await get(serve.baseURL, "/tags")
        let urgent = (try JSONSerialization.jsonObject(with: tags.body) as? [String] ?? []).filter { $0 == "urgent" }.count
        #expect((2...3).contains(urgent), "\(tags.text)")
        let numbers = try JSONSerialization.jsonObject(with: try await get(serve.baseURL, "/untagged").body) as? [Int] ?? []
        #expect(numbers.contains { $0 >= 10 }, "\(numbers)")
        let pet = try await get(serve.baseURL, "/pets/1")
        #expect(pet.status == 200)
        #expect(["cat", "dog"].contains(pet.json["kind"] as? String ?? ""), "\(pet.text)")
    }

    /// Issue 39 item 11 (the sampler's half): the items drawn besides the `contains` ones could match
    /// it too (an enum's first value is drawn), so the sampled `/capped` had three "urgent" where
    /// `maxContains` allows one, and the import left the answer out ("no sampled body satisfies the
    /// schema"). Now the others are drawn to miss it, and openapi-core (independent of stubd's
    /// validator) takes every answer served.
    @Test func aSampledArrayKeepsToMaxContains() async throws {
        try requirePython(modules: "openapi_core", "yaml")
        let imported = try ImportedSpec(OpenAPISpec.document(
            OpenAPISpec.get("/capped", OpenAPISpec.json(schema: """
                type: array
                items: {type: string, enum: [urgent, later, never]}
                contains: {const: urgent}
                minItems: 4
                maxContains: 1
                """)),
            OpenAPISpec.get("/numbers", OpenAPISpec.json(schema: """
                type: array
                items: {type: integer, minimum: 0, maximum: 100}
                contains: {type: integer, minimum: 0, maximum: 50}
                minItems: 3
                minContains: 2
                maxContains: 2
                """))))
        let (spec, dir) = (imported.spec, imported.stubs)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(!imported.error.contains("left out"), "\(imported.error)")

        let serve = try ServeProcess(["--stubs", dir.path, "--spec", spec.path])
        let capped = try JSONSerialization.jsonObject(with: try await get(serve.baseURL, "/capped").body) as? [String] ?? []
        #expect(capped.count >= 4 && capped.filter { $0 == "urgent" }.count == 1, "\(capped)")
        let numbers = try JSONSerialization.jsonObject(with: try await get(serve.baseURL, "/numbers").body) as? [Int] ?? []
        #expect(numbers.count >= 3 && numbers.filter { $0 <= 50 }.count == 2, "\(numbers)")
        let verdict = try run(testPython, [RealWorldCorpusTests.corpus.appendingPathComponent("validate_corpus.py").path,
                                           spec.path, dir.path, serve.baseURL.absoluteString])
        #expect(verdict.status == 0, "\(verdict.output)\(verdict.error)")
        #expect(verdict.output.contains("4 answers, 0 failed"), "\(verdict.output)")
    }
}
