import Foundation
import StubdCoreTestSupport
import Testing
@testable import StubdCore
@testable import StubdEngine

/// Our validator and Python's `jsonschema` must agree on valid/invalid for every generated instance of
/// a few realistic schemas (weather responses, a forecast, discriminated alerts, an account, a
/// recursive thread). One Python process judges them all (Fixtures/jsonschema_verdicts.py).
///
/// `multipleOf` uses divisors exact in binary (0.25, 0.5, 5, 900): for 0.1-style decimals the two differ by
/// design (jsonschema divides in floating point and calls 0.3 no multiple of 0.1; we say it is).
@Suite struct JSONSchemaDifferentialTests {
    static let schemas: [(name: String, json: String)] = [
        ("current weather", """
        {"$defs": {
           "Coord": {"type": "object", "required": ["lon", "lat"], "additionalProperties": false, "properties": {
             "lon": {"type": "number", "minimum": -180, "maximum": 180}, "lat": {"type": "number", "minimum": -90, "maximum": 90}}},
           "Condition": {"type": "object", "required": ["id", "main", "description", "icon"], "properties": {
             "id": {"type": "integer", "minimum": 200, "maximum": 804},
             "main": {"type": "string", "enum": ["Thunderstorm", "Drizzle", "Rain", "Snow", "Clear", "Clouds", "Mist"]},
             "description": {"type": "string", "minLength": 1, "maxLength": 12},
             "icon": {"type": "string", "pattern": "^[0-9]{2}[dn]$", "examples": ["01d", "10n", "4d", "01x", "011d", "13n"]}}}},
         "type": "object", "required": ["coord", "weather", "main", "dt", "name", "cod"], "properties": {
           "coord": {"$ref": "#/$defs/Coord"},
           "weather": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"$ref": "#/$defs/Condition"}},
           "main": {"type": "object", "required": ["temp", "humidity"], "additionalProperties": false, "properties": {
             "temp": {"type": "number"}, "feels_like": {"type": "number"},
             "pressure": {"type": "integer", "minimum": 870, "maximum": 1085},
             "humidity": {"type": "integer", "minimum": 0, "maximum": 100}}},
           "visibility": {"type": "integer", "maximum": 10000},
           "wind": {"type": "object", "properties": {"speed": {"type": "number", "minimum": 0},
             "deg": {"type": "integer", "minimum": 0, "exclusiveMaximum": 360}, "gust": {"type": "number", "exclusiveMinimum": 0}}},
           "rain": {"type": ["object", "null"], "properties": {"1h": {"type": "number", "minimum": 0}}},
           "dt": {"type": "integer", "minimum": 0},
           "timezone": {"type": "integer", "multipleOf": 900, "minimum": -43200, "maximum": 50400},
           "sys": {"type": "object", "properties": {"country": {"type": "string", "minLength": 2, "maxLength": 2},
             "sunrise": {"type": "integer"}, "sunset": {"type": "integer"}}},
           "name": {"type": "string"},
           "observed": {"type": "string", "format": "date-time"},
           "cod": {"const": 200}}}
        """),
        ("forecast", """
        {"type": "object", "required": ["cod", "cnt", "list", "city"], "properties": {
           "cod": {"type": "string", "enum": ["200"]},
           "cnt": {"type": "integer", "minimum": 1, "maximum": 40},
           "list": {"type": "array", "minItems": 1, "maxItems": 5, "items": {"type": "object", "required": ["dt", "temp", "date"],
             "properties": {"dt": {"type": "integer"}, "date": {"type": "string", "format": "date"},
               "temp": {"type": "number", "multipleOf": 0.25}, "pop": {"type": "number", "minimum": 0, "maximum": 1}}}},
           "city": {"type": "object", "required": ["id", "name"], "minProperties": 2, "maxProperties": 3, "properties": {
             "id": {"type": "integer"}, "name": {"type": "string"}, "population": {"type": "integer", "minimum": 0}}},
           "units": {"enum": ["standard", "metric", "imperial"]}}}
        """),
        ("alerts", """
        {"$defs": {
           "Rain": {"type": "object", "required": ["kind", "mm"], "properties": {"kind": {"const": "rain"}, "mm": {"type": "number", "exclusiveMinimum": 0}}},
           "Wind": {"type": "object", "required": ["kind", "speed"], "properties": {"kind": {"const": "wind"},
             "speed": {"type": "number", "minimum": 0}, "gust": {"type": "number"}}},
           "Heat": {"type": "object", "required": ["kind", "celsius"], "properties": {"kind": {"const": "heat"}, "celsius": {"type": "number", "multipleOf": 0.5}}},
           "Alert": {"oneOf": [{"$ref": "#/$defs/Rain"}, {"$ref": "#/$defs/Wind"}, {"$ref": "#/$defs/Heat"}],
             "discriminator": {"propertyName": "kind", "mapping": {"rain": "#/$defs/Rain", "wind": "#/$defs/Wind", "heat": "#/$defs/Heat"}}}},
         "type": "object", "required": ["alerts"], "properties": {
           "alerts": {"type": "array", "maxItems": 4, "items": {"$ref": "#/$defs/Alert"}},
           "issued": {"type": "string", "format": "date-time"},
           "id": {"type": "string", "format": "uuid"}}}
        """),
        ("account", """
        {"type": "object", "required": ["id", "email", "tags"], "additionalProperties": false, "properties": {
           "id": {"type": "string", "format": "uuid"},
           "email": {"type": "string", "format": "email"},
           "birthday": {"type": ["string", "null"], "format": "date"},
           "tags": {"type": "array", "uniqueItems": true, "maxItems": 4, "items": {"type": "string", "minLength": 1, "maxLength": 3}},
           "home": {"type": "array", "minItems": 2, "items": false,
             "prefixItems": [{"type": "number", "minimum": -90, "maximum": 90}, {"type": "number", "minimum": -180, "maximum": 180}]},
           "units": {"anyOf": [{"enum": ["metric", "imperial"]},
             {"type": "string", "pattern": "^x-[a-z]+$", "examples": ["x-kelvin", "x-", "metric", "imperial", "kelvin", "x-Rankine"]}]},
           "nickname": {"type": "string", "not": {"enum": ["admin", "root"]}},
           "score": {"type": "integer", "multipleOf": 5}}}
        """),
        ("thread", """
        {"$ref": "#/$defs/Comment", "$defs": {"Comment": {"type": "object", "required": ["author", "text"], "properties": {
           "author": {"type": "string", "minLength": 1}, "text": {"type": "string", "maxLength": 3},
           "replies": {"type": "array", "items": {"$ref": "#/$defs/Comment"}}}}}}
        """),
    ]

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/jsonschema_verdicts.py")

    @Test func ourVerdictsMatchPythonsJsonschemaOnGeneratedInstances() throws {
        try requirePython(modules: "jsonschema", "rfc3339_validator")
        let documents = try Self.schemas.map { try JSONParser.parse($0.json) }
        var cases: [(schema: Int, instance: JSONValue)] = []
        var generator = InstanceGenerator(seed: 26)
        for (i, document) in documents.enumerated() {
            for _ in 0..<100 { cases.append((i, generator.instance(of: document, root: document))) }
        }

        let job = JSONValue.object(["schemas": .array(documents),
                                    "cases": .array(cases.map { .array([.number(Double($0.schema)), $0.instance]) })])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-schema-\(UUID().uuidString).json")
        try Data(job.serialized.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output, error) = try run(testPython, [Self.script.path, file.path])
        try #require(status == 0, "\(testPython) could not judge the instances: \(error)")
        guard case .object(let answer) = try JSONParser.parse(output), case .array(let verdicts)? = answer["verdicts"],
              case .array(let formats)? = answer["formats"] else {
            Issue.record("unexpected answer from Python: \(output.prefix(300))")
            return
        }
        // Without these checkers Python would wave every bad date through and agreement would mean nothing.
        for format in ["date-time", "date", "uuid", "email"] {
            #expect(formats.contains(.string(format)), "Python's jsonschema does not check \(format) (scripts/requirements-test.txt pins rfc3339-validator)")
        }
        try #require(verdicts.count == cases.count)

        let compiled = try documents.map { try JSONSchema($0) }
        var tally = Array(repeating: (valid: 0, invalid: 0), count: documents.count)
        for (i, (schema, instance)) in cases.enumerated() {
            let ours = compiled[schema].validate(instance)
            #expect(verdicts[i] == .bool(ours.isEmpty), """
                \(Self.schemas[schema].name): Python says \(verdicts[i]), we found \(ours.isEmpty ? "nothing" : "\(ours)") in
                \(instance.serialized)
                """)
            #expect(compiled[schema].isValid(instance) == ours.isEmpty)
            if ours.isEmpty { tally[schema].valid += 1 } else { tally[schema].invalid += 1 }
        }
        // The generator must exercise both verdicts, or agreement is cheap.
        for (i, count) in tally.enumerated() {
            #expect(count.valid >= 12 && count.invalid >= 12, "\(Self.schemas[i].name): \(count.valid) valid, \(count.invalid) invalid")
        }
    }
}
