import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine

/// An XML body read back as the JSON value its schema describes, so the JSON Schema evaluator judges
/// it (issue 58 item 5). Before: no reader.
@Suite struct XMLBodyDecoderTests {
    static let document = try! JSONParser.parse(#"""
        {"components": {"schemas": {
          "Pet": {"type": "object", "xml": {"name": "pet", "prefix": "p", "namespace": "urn:pets"}, "required": ["id", "name"],
                  "additionalProperties": false,
                  "properties": {
                    "id": {"type": "integer", "xml": {"attribute": true}},
                    "name": {"type": "string", "xml": {"name": "petName"}},
                    "weight": {"type": "number"},
                    "vaccinated": {"type": "boolean"},
                    "nickname": {"type": "string", "nullable": true},
                    "owner": {"$ref": "#/components/schemas/Owner"},
                    "photoUrls": {"type": "array", "xml": {"wrapped": true}, "items": {"type": "string", "xml": {"name": "photoUrl"}}},
                    "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}},
                    "scores": {"type": "array", "xml": {"wrapped": true}, "items": {"type": "integer"}}}},
          "Owner": {"type": "object", "properties": {"name": {"type": "string"}, "since": {"type": "integer", "xml": {"attribute": true}}}},
          "Tag": {"type": "object", "xml": {"name": "tag"}, "properties": {"id": {"type": "integer"}, "label": {"type": "string"}}}}}}
        """#)
    static let pet = XMLSchemaGuide(schema: .object(["$ref": .string("#/components/schemas/Pet")]), in: document)
    static let schema = try! SchemaCompiler(document: document, dialect: .openAPI30).schema(at: "#/components/schemas/Pet")

    func decoded(_ xml: String, _ guide: XMLSchemaGuide? = pet) throws -> JSONValue {
        try XMLBodyDecoder.value(of: Data(xml.utf8), guide: guide)
    }

    /// Each hint both ways: attribute, name, prefix and namespace, wrapped and unwrapped arrays, a `$ref`'d
    /// member with its own attribute, scalars by their type, null where allowed, text needing escapes.
    @Test func whatTheRendererWritesReadsBackAsTheSameValue() throws {
        let value = try JSONParser.parse(#"""
            {"id": 7, "name": "R&R <\"best\">", "weight": 12.5, "vaccinated": true, "nickname": null,
             "owner": {"name": "Ann", "since": 2020}, "photoUrls": ["a", "b"], "scores": [],
             "tags": [{"id": 1, "label": "x"}, {"id": 2}]}
            """#)
        let xml = XMLRenderer.document(value, guide: Self.pet)
        #expect(xml.contains(#"<p:pet xmlns:p="urn:pets" id="7">"#) && xml.contains("\n  <petName>") && xml.contains("<tag>\n"), "\(xml)")
        #expect(xml.contains(#"<nickname xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/>"#), "\(xml)")
        let read = try decoded(xml)
        #expect(read == value, "\(read.serialized)")
        #expect(Self.schema.validate(try decoded(xml)).isEmpty)
    }

    @Test func aTextThatIsNotItsTypeStaysAStringForTheEvaluatorToName() throws {
        let instance = try decoded(#"<pet id="seven"><petName>Rex</petName><weight> 3 </weight><vaccinated>maybe</vaccinated><extra>1</extra></pet>"#)
        let messages = Self.schema.validate(instance).map { "\($0.instancePath): \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("/id: expected an integer, got the string") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("/vaccinated: expected a boolean") }, "\(messages)")
        #expect(messages.contains { $0.contains("extra") }, "an element the schema does not name is a member: \(messages)")
        #expect(!messages.contains { $0.hasPrefix("/weight") }, "white space around a number is XML's, not the value's: \(messages)")
    }

    @Test func aMissingRequiredMemberIsMissing() throws {
        let messages = Self.schema.validate(try decoded("<pet><weight>1</weight></pet>")).map(\.message)
        #expect(messages.contains { $0.contains("id") } && messages.contains { $0.contains("name") }, "\(messages)")
    }

    /// Without a schema to say otherwise, elements with children are objects and the rest text.
    @Test func withoutASchemaTheShapeDecides() throws {
        #expect(try decoded("<a k='v'><b>1</b><c/><b>2</b></a>", nil)
                == .object(["k": .string("v"), "b": .array([.string("1"), .string("2")]), "c": .string("")]))
    }
}
