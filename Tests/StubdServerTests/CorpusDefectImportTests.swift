import Foundation
import StubdTestSupport
import Testing

/// What the issue 58 corpus run (Twilio's 55 specs, DigitalOcean's bundle, 40 APIs.guru specs, Prism's
/// harness) found stubd doing wrong with specs nobody here wrote: each a spec of our own in the
/// shape found, imported and checked as a user would.
@Suite struct CorpusDefectImportTests {
    /// The text of a file the import wrote, `path` inside its Stubs folder.
    static func written(_ path: String, by imported: ImportedSpec) throws -> String {
        try String(contentsOf: imported.stubs.appendingPathComponent(path), encoding: .utf8)
    }

    /// A status `ok` from both `openapi import` and `check --spec` of what it wrote.
    static func importsAndChecks(_ spec: String) throws -> (imported: ImportedSpec, check: (status: Int32, output: String, error: String)) {
        let imported = try ImportedSpec(spec)
        let check = try run(stubdBinary.path, ["check", "--stubs", imported.stubs.path, "--spec", imported.spec.path])
        return (imported, check)
    }

    /// WolframAlpha's `text/plain: {}`: import wrote a route without a Content-Type, which its own
    /// check refused ("a bug in stubd: please report it"), and nothing was written.
    @Test func aMediaTypeWithNeitherSchemaNorExampleIsAnEmptyBodyOfThatType() throws {
        let (imported, check) = try Self.importsAndChecks("""
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /eval:
                get:
                  responses:
                    '200': {description: the result, content: {text/plain: {}}}
              /json:
                get:
                  responses:
                    '200': {description: any JSON, content: {application/json: {}}}
            """)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(check.status == 0, "\(check.error)")
        let manifest = try Self.written("stubd.yml", by: imported)
        #expect(manifest.contains("text/plain") && manifest.contains("application/json"), "\(manifest)")
    }

    /// Pendo's `securityDefinitions: {userApiKey (request header): …}`: 2.0 allows any name, 3.0's
    /// components do not, and the converted document was refused as if the user's spec were wrong.
    @Test func aSwagger2NameThatIsNoComponentKeyIsRenamed() throws {
        let (imported, check) = try Self.importsAndChecks("""
            swagger: "2.0"
            info: {title: t, version: "1"}
            securityDefinitions:
              userApiKey (request header): {type: apiKey, in: header, name: auth-token}
            security:
              - userApiKey (request header): []
            definitions:
              Pet Model: {type: object, properties: {name: {type: string}}, example: {name: Rex}}
            paths:
              /pets/1:
                get:
                  produces: [application/json]
                  responses:
                    "200": {description: ok, schema: {$ref: '#/definitions/Pet Model'}}
            """)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(check.status == 0, "\(check.error)")
        let body = try Self.written("__files/get_pets_1/200.json", by: imported)
        #expect(body.contains("Rex"), "\(body)")
    }

    /// iSendPro's `termsOfService: cf CGV iSendPro.com`: a link for people refused the whole spec.
    @Test func aMetadataLinkThatIsNotAURLIsLeftOutWithAWarning() throws {
        let (imported, check) = try Self.importsAndChecks("""
            openapi: 3.0.3
            info:
              title: t
              version: '1'
              termsOfService: cf CGV iSendPro.com
            paths:
              /credit:
                get:
                  responses:
                    '200': {description: ok, content: {application/json: {example: {credit: 3}}}}
            """)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.error.contains("spec.yaml:5:") && imported.error.contains("'termsOfService' is not a URL (cf CGV iSendPro.com); left out"), "\(imported.error)")
        #expect(check.status == 0, "\(check.error)")
    }

    /// DigitalOcean's Kafka topic config: `flush_ms: 9223372036854776000` under `type: integer` was
    /// written `9.223372036854776e+18`, which openapi-core (and a Swift Int decoder) does not read as an integer.
    @Test func anIntegerPast2To63IsWrittenAsAnInteger() throws {
        let (imported, check) = try Self.importsAndChecks("""
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /topics:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: {type: object, properties: {flush_ms: {type: integer}}}
                          example: {flush_ms: 9223372036854776000}
            """)
        #expect(imported.status == 0 && check.status == 0, "\(imported.error) \(check.error)")
        let body = try Self.written("__files/get_topics/200.json", by: imported)
        #expect(body.contains(#""flush_ms":9223372036854775808"#), "\(body)")
    }

    /// CDC's prime-data-hub: a discriminator without a mapping, the branch's property giving an
    /// example (`CUSTOM`) that is not the branch's name (`Custom`): every draw broke the schema, and
    /// the answer was left out. The sampler now sets the discriminating property to the branch's name
    /// (or its mapping key).
    @Test func aDiscriminatedBranchIsSampledWithItsName() throws {
        let (imported, check) = try Self.importsAndChecks("""
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /things:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            anyOf: [{$ref: '#/components/schemas/Custom'}, {$ref: '#/components/schemas/Redox'}]
                            discriminator: {propertyName: type}
              /mapped:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            oneOf: [{$ref: '#/components/schemas/Redox'}]
                            discriminator: {propertyName: type, mapping: {redox-v1: '#/components/schemas/Redox'}}
            components:
              schemas:
                Custom: {type: object, required: [type], properties: {type: {type: string, example: CUSTOM}}}
                Redox: {type: object, required: [type], properties: {type: {type: string, example: REDOX}}}
            """)
        #expect(imported.status == 0 && check.status == 0, "\(imported.error) \(check.error)")
        let things = try Self.written("__files/get_things/200.json", by: imported)
        #expect(things.contains(#""type":"Custom""#), "\(things)")
        let mapped = try Self.written("__files/get_mapped/200.json", by: imported)
        #expect(mapped.contains(#""type":"redox-v1""#), "\(mapped)")
    }

    /// Prism's harness (Xml-AC-4, query-param-upper-case): a Swagger 2.0 object example under an XML
    /// type with no schema, and an example under a key that is no media type (`error`). Both were left
    /// out, and the route written without a Content-Type, which import's own check refused.
    @Test func aSwagger2ExampleWithoutASchemaStillGivesARouteCheckTakes() throws {
        let (imported, check) = try Self.importsAndChecks("""
            swagger: "2.0"
            info: {title: t, version: "1"}
            paths:
              /pets:
                get:
                  produces: [application/xml]
                  responses:
                    "200": {description: ok, examples: {application/xml: {id: 1, name: Sharik}}}
              /flags:
                get:
                  produces: [application/json]
                  responses:
                    "200": {description: ok, examples: {error: false}}
            """)
        #expect(imported.status == 0 && check.status == 0, "\(imported.error) \(check.error)")
        let pets = try Self.written("__files/get_pets/200.xml", by: imported)
        #expect(pets.contains("<name>Sharik</name>"), "\(pets)")
    }
}
