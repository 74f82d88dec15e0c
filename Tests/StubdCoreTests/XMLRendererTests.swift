import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine

/// A JSON value written as the XML its schema describes, by OpenAPI's `xml` object (issue 58 item 5).
/// Before: no renderer; an XML answer with an object schema was left out of an import.
@Suite struct XMLRendererTests {
    /// The schema at `#/components/schemas/NAME` of a document holding `components`.
    func rendered(_ value: String, schema: String, components: String = "{}") throws -> String {
        let document = try JSONParser.parse(#"{"components": {"schemas": \#(components)}}"#)
        return XMLRenderer.document(try JSONParser.parse(value), guide: XMLSchemaGuide(schema: try JSONParser.parse(schema), in: document))
    }

    @Test func theRootIsNamedByXMLNameElseTheComponentElseRoot() throws {
        let pet = #"{"Pet": {"type": "object", "properties": {"id": {"type": "integer"}}}, "Named": {"type": "object", "xml": {"name": "animal"}}}"#
        #expect(try rendered(#"{"id": 1}"#, schema: ##"{"$ref": "#/components/schemas/Pet"}"##, components: pet)
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Pet>\n  <id>1</id>\n</Pet>\n")
        #expect(try rendered("{}", schema: ##"{"$ref": "#/components/schemas/Named"}"##, components: pet).contains("<animal/>"))
        #expect(try rendered(#"{"a": "b"}"#, schema: #"{"type": "object"}"#).contains("<root>\n  <a>b</a>\n</root>"))
    }

    @Test func anAttributeMemberIsAnAttributeAndNameRenamesIt() throws {
        let xml = try rendered(#"{"id": 7, "name": "Rex"}"#, schema: #"""
            {"type": "object", "xml": {"name": "pet"}, "properties": {"id": {"type": "integer", "xml": {"attribute": true}},
             "name": {"type": "string", "xml": {"name": "petName"}}}}
            """#)
        #expect(xml.contains(#"<pet id="7">"#) && xml.contains("<petName>Rex</petName>"), "\(xml)")
    }

    @Test func anUnwrappedArrayRepeatsItsItemsAndAWrappedOneHoldsThem() throws {
        let value = #"{"tags": ["a", "b"], "urls": ["u"], "plain": [1, 2]}"#
        let xml = try rendered(value, schema: #"""
            {"type": "object", "properties": {
              "tags": {"type": "array", "items": {"type": "string", "xml": {"name": "tag"}}},
              "urls": {"type": "array", "xml": {"wrapped": true}, "items": {"type": "string", "xml": {"name": "url"}}},
              "plain": {"type": "array", "xml": {"wrapped": true}, "items": {"type": "integer"}}}}
            """#)
        #expect(xml.contains("  <tag>a</tag>\n  <tag>b</tag>\n"), "\(xml)")
        #expect(xml.contains("  <urls>\n    <url>u</url>\n  </urls>\n"), "\(xml)")
        // OpenAPI: items without a name are named as the array (`<animals><animals>…`).
        #expect(xml.contains("  <plain>\n    <plain>1</plain>\n    <plain>2</plain>\n  </plain>\n"), "\(xml)")
    }

    @Test func aRootArrayIsWrappedAndItsItemsNamedByTheirComponent() throws {
        let xml = try rendered(#"[{"id": 1}, {"id": 2}]"#, schema: ##"{"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}"##,
                               components: #"{"Pet": {"type": "object"}}"#)
        #expect(xml.hasSuffix("<root>\n  <Pet>\n    <id>1</id>\n  </Pet>\n  <Pet>\n    <id>2</id>\n  </Pet>\n</root>\n"), "\(xml)")
    }

    @Test func aNamespaceIsDeclaredOnceWithItsPrefix() throws {
        let xml = try rendered(#"{"id": 1, "name": "n"}"#, schema: #"""
            {"type": "object", "xml": {"name": "pet", "namespace": "https://example.com/pet", "prefix": "p"},
             "properties": {"id": {"type": "integer", "xml": {"prefix": "p", "namespace": "https://example.com/pet"}},
                            "name": {"type": "string", "xml": {"namespace": "urn:other"}}}}
            """#)
        #expect(xml.contains(#"<p:pet xmlns:p="https://example.com/pet">"#), "\(xml)")
        #expect(xml.contains("<p:id>1</p:id>"), "declared around it already: \(xml)")
        #expect(xml.contains(#"<name xmlns="urn:other">n</name>"#), "\(xml)")
    }

    @Test func textAndAttributesAreEscaped() throws {
        let xml = try rendered(#"{"note": "a < b & c > d ]]>", "title": "say \"hi\"\n&\u0001"}"#,
                               schema: #"{"type": "object", "properties": {"title": {"type": "string", "xml": {"attribute": true}}}}"#)
        #expect(xml.contains("<note>a &lt; b &amp; c &gt; d ]]&gt;</note>"), "\(xml)")
        #expect(xml.contains(#"title="say &quot;hi&quot;&#10;&amp;\#u{FFFD}""#), "\(xml)")
    }

    @Test func aMemberNameXMLRefusesIsMadeAName() throws {
        let xml = try rendered(#"{"first name": "a", "2fa": true}"#, schema: #"{"type": "object"}"#)
        #expect(xml.contains("<first_name>a</first_name>") && xml.contains("<_2fa>true</_2fa>"), "\(xml)")
    }
}
