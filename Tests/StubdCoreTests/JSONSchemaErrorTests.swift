import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine

/// What a user reads when an answer breaks its schema: where in the answer, where in the spec, and what to do.
@Suite struct JSONSchemaErrorTests {
    static let spec = """
    {"openapi": "3.0.3", "components": {"schemas": {
      "Weather": {"type": "object", "required": ["main", "dt"], "additionalProperties": false, "properties": {
        "main": {"type": "object", "additionalProperties": false, "required": ["temp"], "properties": {
          "temp": {"type": "number"}, "humidity": {"type": "integer", "minimum": 0, "maximum": 100}}},
        "units": {"type": "string", "enum": ["metric", "imperial", "standard"]},
        "observed": {"type": "string", "format": "date-time"},
        "dt": {"type": "integer", "format": "int64"},
        "note": {"type": "string", "nullable": true}}},
      "Node": {"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}},
      "LoopA": {"$ref": "#/components/schemas/LoopB"},
      "LoopB": {"$ref": "#/components/schemas/LoopA"},
      "SelfAll": {"allOf": [{"$ref": "#/components/schemas/SelfAll"}]}
    }}}
    """

    static func schema(_ name: String) throws -> JSONSchema {
        try SchemaCompiler(document: try JSONParser.parse(spec), dialect: .openAPI30).schema(at: "#/components/schemas/" + name)
    }

    static func violations(_ name: String, _ json: String) throws -> [SchemaViolation] {
        try schema(name).validate(try JSONParser.parse(json))
    }

    @Test func aWrongTypeNamesBothPositionsAndWhatWasExpected() throws {
        let found = try Self.violations("Weather", #"{"main": {"temp": "12"}, "dt": 1}"#)
        #expect(found == [SchemaViolation(
            instancePath: "/main/temp", schemaPath: "#/components/schemas/Weather/properties/main/properties/temp/type",
            keyword: "type", message: "expected a number, got the string \"12\"")])
    }

    @Test func aMissingRequiredPropertyIsNamed() throws {
        let found = try Self.violations("Weather", #"{"main": {}, "dt": 1}"#)
        #expect(found.count == 1)
        #expect(found.first?.instancePath == "/main")
        #expect(found.first?.schemaPath == "#/components/schemas/Weather/properties/main/required")
        #expect(found.first?.message == "the required property 'temp' is missing")
    }

    @Test func anExtraPropertyNearADeclaredOneGetsDidYouMean() throws {
        let found = try Self.violations("Weather", #"{"main": {"temp": 1, "tmep": 2}, "dt": 1}"#)
        #expect(found.map(\.instancePath) == ["/main/tmep"])
        #expect(found.first?.keyword == "additionalProperties")
        #expect(found.first?.schemaPath == "#/components/schemas/Weather/properties/main/additionalProperties")
        #expect(found.first?.message == "the property 'tmep' is not allowed here; did you mean 'temp'?")
        // Far from every declared name: the message lists what is allowed instead.
        let far = try Self.violations("Weather", #"{"main": {"temp": 1}, "dt": 1, "wind": {}}"#)
        #expect(far.first?.message == "the property 'wind' is not allowed here; allowed: dt, main, note, observed, units")
    }

    @Test func aBadEnumValueListsTheAllowedOnes() throws {
        let found = try Self.violations("Weather", #"{"main": {"temp": 1}, "dt": 1, "units": "celsius"}"#)
        #expect(found.map(\.instancePath) == ["/units"])
        #expect(found.first?.message == #"expected one of "metric", "imperial", or "standard", got the string "celsius""#)
        let near = try Self.violations("Weather", #"{"main": {"temp": 1}, "dt": 1, "units": "metrc"}"#)
        #expect(near.first?.message.hasSuffix(#"; did you mean "metric"?"#) == true)
    }

    @Test func aBadDateTimeSaysWhatTheFormatLooksLike() throws {
        let found = try Self.violations("Weather", #"{"main": {"temp": 1}, "dt": 1, "observed": "2024-02-30T10:00:00Z"}"#)
        #expect(found.map(\.instancePath) == ["/observed"])
        #expect(found.first?.keyword == "format")
        #expect(found.first?.message == #"expected an RFC 3339 date-time such as 2024-05-01T12:00:00Z, got the string "2024-02-30T10:00:00Z": "#
                + "a Swift client decodes a date-time into a Date and fails on this (swift-openapi-generator's client, JSONDecoder's .iso8601)"
                + "; `--formats annotate-all` takes it as a description")
        #expect(try Self.violations("Weather", #"{"main": {"temp": 1}, "dt": 1, "observed": "2024-02-29T10:00:00+01:00"}"#).isEmpty)
    }

    @Test func everyViolationIsReportedNotOnlyTheFirst() throws {
        let found = try Self.violations("Weather", #"{"main": {"temp": "x", "humidity": 140, "tmep": 1}, "units": "kelvin", "note": null}"#)
        #expect(Set(found.map(\.keyword)) == ["required", "type", "maximum", "additionalProperties", "enum"])
        #expect(found.count == 5)
    }

    @Test func theCountIsBounded() throws {
        let schema = try JSONSchema(try JSONParser.parse(#"{"items": {"type": "string"}}"#))
        let many = JSONValue.array(Array(repeating: .number(1), count: 1000))
        #expect(schema.validate(many).count == 100)
        #expect(schema.validate(many, limit: 3).map(\.instancePath) == ["/0", "/1", "/2"])
    }

    @Test func nullableAndTheTypeListBothAllowNull() throws {
        #expect(try Self.violations("Weather", #"{"main": {"temp": 1}, "dt": 1, "note": null}"#).isEmpty)
        let found = try Self.violations("Weather", #"{"main": {"temp": 1}, "dt": 1, "units": null}"#)
        #expect(found.first?.message.contains("got null") == true)
        let v31 = try JSONSchema(try JSONParser.parse(#"{"type": ["string", "null"], "exclusiveMinimum": 3}"#))
        #expect(v31.isValid(.null) && v31.isValid(.string("x")) && !v31.isValid(.number(1)))
        #expect(v31.validate(.number(1)).first?.message == "expected a string or null, got the number 1")
    }

    @Test func exclusiveBoundsInBothDialects() throws {
        let v30 = try JSONSchema(try JSONParser.parse(#"{"minimum": 0, "exclusiveMinimum": true, "maximum": 10}"#), dialect: .openAPI30)
        #expect(!v30.isValid(.number(0)) && v30.isValid(.number(0.1)) && v30.isValid(.number(10)))
        #expect(v30.validate(.number(0)).first?.message == "expected a number > 0, got 0")
        let v31 = try JSONSchema(try JSONParser.parse(#"{"exclusiveMinimum": 0, "exclusiveMaximum": 10}"#))
        #expect(!v31.isValid(.number(0)) && v31.isValid(.number(5)) && !v31.isValid(.number(10)))
    }

    @Test func decimalMultiplesAreMultiples() throws {
        let cents = try JSONSchema(try JSONParser.parse(#"{"multipleOf": 0.01}"#))
        for ok in [0.07, 1.1, 19.99, 0.3, 1234567.89] { #expect(cents.isValid(.number(ok)), "\(ok)") }
        for bad in [0.001, 19.995, 0.305] { #expect(!cents.isValid(.number(bad)), "\(bad)") }
        #expect(try JSONSchema(try JSONParser.parse(#"{"multipleOf": 0.1}"#)).isValid(.number(0.3)))
    }

    /// OpenAPI's own formats, which the JSON Schema Test Suite does not cover.
    @Test func openAPINumberFormatsAndByte() throws {
        func schema(_ format: String) throws -> JSONSchema {
            try JSONSchema(.object(["format": .string(format)]), dialect: .openAPI30)
        }
        let int32 = try schema("int32"), int64 = try schema("int64"), float = try schema("float"), byte = try schema("byte")
        #expect(int32.isValid(.number(2147483647)) && int32.isValid(.number(-2147483648)))
        #expect(!int32.isValid(.number(2147483648)) && !int32.isValid(.number(1.5)))
        #expect(int32.validate(.number(2147483648)).first?.message == "expected an integer from -2147483648 to 2147483647, got the number 2147483648")
        #expect(int64.isValid(.number(9007199254740992)) && !int64.isValid(.number(1e19)) && !int64.isValid(.number(0.5)))
        #expect(float.isValid(.number(3.4e38)) && !float.isValid(.number(3.5e38)))
        #expect(try schema("double").isValid(.number(1e308)))
        #expect(byte.isValid(.string("aGVsbG8=")) && byte.isValid(.string("")) && byte.isValid(.string("aGk=")))
        #expect(!byte.isValid(.string("aGVsbG8")) && !byte.isValid(.string("a=Vs")) && !byte.isValid(.string("hé==")))
        // Each format leaves values of the other kind alone, as JSON Schema's formats do.
        #expect(int32.isValid(.string("x")) && byte.isValid(.number(1)))
    }

    @Test func in30ARefReplacesItsSiblingsAnd2020AppliesThem() throws {
        let doc = try JSONParser.parse(##"{"$defs": {"S": {"type": "string"}}, "$ref": "#/$defs/S", "maxLength": 2}"##)
        #expect(try JSONSchema(doc, dialect: .openAPI30).isValid(.string("long")))
        #expect(try JSONSchema(doc, dialect: .jsonSchema2020).validate(.string("long")).map(\.keyword) == ["maxLength"])
    }

    @Test func aRecursiveSchemaValidatesAFiniteTree() throws {
        let tree = #"{"name": "a", "children": [{"name": "b", "children": [{"name": "c"}, {"name": "d", "children": []}]}]}"#
        #expect(try Self.violations("Node", tree).isEmpty)
        let broken = #"{"name": "a", "children": [{"name": "b", "children": [{"name": 3}, {}]}]}"#
        let found = try Self.violations("Node", broken)
        #expect(found.map(\.instancePath) == ["/children/0/children/0/name", "/children/0/children/1"])
        #expect(found.first?.schemaPath == "#/components/schemas/Node/properties/name/type")
    }

    @Test func aDeepTreeAgainstARecursiveSchemaEnds() throws {
        var value = JSONValue.object(["name": .string("leaf")])
        for _ in 0..<100 { value = .object(["name": .string("n"), "children": .array([value])]) }
        #expect(try Self.schema("Node").validate(value).isEmpty)
    }

    /// The parser's deepest document (512 levels) against a recursive schema, on a secondary thread's
    /// small stack: the evaluator's depth bound answers before the stack runs out.
    @Test func theDeepestDocumentIsAViolationNotAStackOverflow() async throws {
        var value = JSONValue.object(["name": .string("leaf")])
        for _ in 0..<255 { value = .object(["name": .string("n"), "children": .array([value])]) }
        let schema = try Self.schema("Node")
        let found = await Task.detached { [value] in schema.validate(value) }.value
        #expect(found.count == 1)
        #expect(found.first?.message.contains("nests deeper than") == true, "\(found)")
    }

    @Test func aRefLoopIsAnErrorNotACrash() throws {
        for name in ["LoopA", "SelfAll"] {
            let found = try Self.schema(name).validate(.object([:]))
            #expect(found.count == 1, "\(name): \(found)")
            #expect(found.first?.keyword == "$ref")
            #expect(found.first?.message.contains("leads back to itself") == true, "\(name)")
        }
    }

    @Test func aDiscriminatorPicksTheBranchAndExplainsAnUnknownValue() throws {
        let doc = """
        {"components": {"schemas": {
          "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                  "discriminator": {"propertyName": "kind", "mapping": {"kitty": "Cat", "dog": "#/components/schemas/Dog"}}},
          "Cat": {"type": "object", "required": ["kind", "lives"], "properties": {"kind": {"type": "string"}, "lives": {"type": "integer"}}},
          "Dog": {"type": "object", "required": ["kind", "bark"], "properties": {"kind": {"type": "string"}, "bark": {"type": "string"}}}
        }}}
        """
        let pet = try SchemaCompiler(document: try JSONParser.parse(doc), dialect: .jsonSchema2020).schema(at: "#/components/schemas/Pet")
        #expect(pet.isValid(try JSONParser.parse(#"{"kind": "kitty", "lives": 9}"#)))
        #expect(pet.isValid(try JSONParser.parse(#"{"kind": "Cat", "lives": 9}"#)))
        let wrong = pet.validate(try JSONParser.parse(#"{"kind": "dog", "lives": 9}"#))
        #expect(wrong.first?.message == "the required property 'bark' is missing")
        #expect(wrong.first?.schemaPath == "#/components/schemas/Dog/required")
        let unknown = pet.validate(try JSONParser.parse(#"{"kind": "dgo"}"#))
        #expect(unknown.map(\.instancePath) == ["/kind"])
        #expect(unknown.first?.message == #"expected one of "Cat", "Dog", "dog", or "kitty", got the string "dgo"; did you mean "dog"?"#)
        #expect(pet.validate(.object([:])).first?.message.contains("'kind' is missing") == true)
    }

    @Test func aBrokenSchemaListsEveryProblem() throws {
        let doc = try JSONParser.parse(##"{"type": "strin", "pattern": "([", "properties": {"a": {"$ref": "#/$defs/nope"}}, "minLength": -1}"##)
        let problems = Self.problems(doc)
        #expect(problems.count == 4, "\(problems)")
        #expect(problems.contains("#/properties/a/$ref: #/$defs/nope points at nothing in this document"))
    }

    static func problems(_ doc: JSONValue) -> [String] {
        let result = Result { () throws(SchemaError) -> JSONSchema in try JSONSchema(doc) }
        guard case .failure(let error) = result else { return [] }
        return error.problems
    }
}
