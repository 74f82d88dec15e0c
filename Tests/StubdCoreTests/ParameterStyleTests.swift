import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine

/// Issue 39 item 2: every style OpenAPI defines, read back from the specification's own "Style
/// Examples" table (color = "blue", ["blue", "black", "brown"], {"R": 100, "G": 200, "B": 150}).
@Suite struct ParameterStyleTests {
    static let blue = JSONValue.string("blue")
    static let colors = JSONValue.array([.string("blue"), .string("black"), .string("brown")])
    static let rgb = JSONValue.object(["R": .number(100), "G": .number(200), "B": .number(150)])

    enum Shape { case string, array, object }

    static func schema(_ shape: Shape) -> JSONSchema {
        switch shape {
        case .string: return try! JSONSchema(.object(["type": .string("string")]))
        case .array: return try! JSONSchema(.object(["type": .string("array"), "items": .object(["type": .string("string")])]))
        case .object:
            let integer = JSONValue.object(["type": .string("integer")])
            return try! JSONSchema(.object(["type": .string("object"), "properties": .object(["R": integer, "G": integer, "B": integer])]))
        }
    }

    /// How `sent` reads for a `color` parameter: a string, array or object with its items typed, or
    /// `malformed: ...` / `absent`.
    static func read(_ sent: String, in place: ContractParameter.Place, _ style: ParameterStyle?, explode: Bool?,
                     _ shape: Shape) -> String {
        let compiled = Self.schema(shape)
        let parameter = ContractParameter(name: "color", place: place, required: true, schema: compiled, style: style, explode: explode)
        var pathValues: [String: String] = [:]
        var query: [QueryItem] = []
        var headers = HTTPFields()
        switch place {
        case .path: pathValues["color"] = sent
        case .query:
            // As libmicrohttpd hands the query over: split at & and =, then percent-decoded.
            query = sent.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return QueryItem(name: String(parts[0]).removingPercentEncoding!,
                                 value: parts.count > 1 ? String(parts[1]).removingPercentEncoding! : nil)
            }
        case .header: headers[HTTPField.Name("Color")!] = sent
        case .cookie: headers[.cookie] = sent
        }
        let reader = ParameterReader(pathValues: pathValues, query: query, headers: headers, parameters: [parameter])
        switch reader.read(parameter) {
        case .absent: return "absent"
        case .malformed(let message): return "malformed: " + message
        case .text(let text): return JSONValue.string(text).serialized
        case .value(let raw): return compiled.coerceParameter(raw).serialized
        }
    }

    /// One row of the table: the spelling of the string, the array and the object (nil where the table says n/a).
    struct Row: CustomTestStringConvertible {
        let style: ParameterStyle
        let explode: Bool
        let places: [ContractParameter.Place]
        let empty: String?
        let string: String?
        let array: String
        let object: String?
        var testDescription: String { "\(style.rawValue), explode: \(explode)" }
    }

    static let table: [Row] = [
        Row(style: .matrix, explode: false, places: [.path], empty: ";color", string: ";color=blue",
            array: ";color=blue,black,brown", object: ";color=R,100,G,200,B,150"),
        Row(style: .matrix, explode: true, places: [.path], empty: ";color", string: ";color=blue",
            array: ";color=blue;color=black;color=brown", object: ";R=100;G=200;B=150"),
        Row(style: .label, explode: false, places: [.path], empty: ".", string: ".blue",
            array: ".blue.black.brown", object: ".R.100.G.200.B.150"),
        Row(style: .label, explode: true, places: [.path], empty: ".", string: ".blue",
            array: ".blue.black.brown", object: ".R=100.G=200.B=150"),
        Row(style: .form, explode: false, places: [.query], empty: "color=", string: "color=blue",
            array: "color=blue,black,brown", object: "color=R,100,G,200,B,150"),
        Row(style: .form, explode: true, places: [.query], empty: "color=", string: "color=blue",
            array: "color=blue&color=black&color=brown", object: "R=100&G=200&B=150"),
        Row(style: .simple, explode: false, places: [.path, .header], empty: nil, string: "blue",
            array: "blue,black,brown", object: "R,100,G,200,B,150"),
        Row(style: .simple, explode: true, places: [.path, .header], empty: nil, string: "blue",
            array: "blue,black,brown", object: "R=100,G=200,B=150"),
        Row(style: .spaceDelimited, explode: false, places: [.query], empty: nil, string: nil,
            array: "color=blue%20black%20brown", object: "color=R%20100%20G%20200%20B%20150"),
        Row(style: .pipeDelimited, explode: false, places: [.query], empty: nil, string: nil,
            array: "color=blue|black|brown", object: "color=R|100|G|200|B|150"),
        Row(style: .deepObject, explode: true, places: [.query], empty: nil, string: nil,
            array: "", object: "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"),
    ]

    @Test(arguments: table) func theSpecificationsExamplesReadBack(_ row: Row) {
        for place in row.places {
            if let empty = row.empty {
                #expect(Self.read(empty, in: place, row.style, explode: row.explode, .string) == #""""#, "\(place) empty")
            }
            if let string = row.string {
                #expect(Self.read(string, in: place, row.style, explode: row.explode, .string) == Self.blue.serialized, "\(place) string")
            }
            if !row.array.isEmpty {
                #expect(Self.read(row.array, in: place, row.style, explode: row.explode, .array) == Self.colors.serialized, "\(place) array")
            }
            if let object = row.object {
                #expect(Self.read(object, in: place, row.style, explode: row.explode, .object) == Self.rgb.serialized, "\(place) object")
            }
        }
    }

    /// RFC 6570 (and OpenAPI 3.1.1's corrected table) write an unexploded label list with commas.
    @Test func anUnexplodedLabelTakesCommasToo() {
        #expect(Self.read(".blue,black,brown", in: .path, .label, explode: false, .array) == Self.colors.serialized)
        #expect(Self.read(".R,100,G,200,B,150", in: .path, .label, explode: false, .object) == Self.rgb.serialized)
    }

    /// Each location's default: form and exploded for query and cookie, simple for path and header.
    @Test func eachLocationHasItsDefaultStyle() {
        #expect(Self.read("R=100&G=200&B=150", in: .query, nil, explode: nil, .object) == Self.rgb.serialized)
        #expect(Self.read("color=blue&color=black&color=brown", in: .query, nil, explode: nil, .array) == Self.colors.serialized)
        #expect(Self.read("blue,black,brown", in: .path, nil, explode: nil, .array) == Self.colors.serialized)
        #expect(Self.read("R,100,G,200,B,150", in: .header, nil, explode: nil, .object) == Self.rgb.serialized)
        #expect(Self.read("blue, black ,brown", in: .header, nil, explode: nil, .array) == Self.colors.serialized)
        #expect(Self.read("color=blue; color=black; color=brown", in: .cookie, nil, explode: nil, .array) == Self.colors.serialized)
        #expect(Self.read("other=1; color=blue,black,brown", in: .cookie, .form, explode: false, .array) == Self.colors.serialized)
        #expect(Self.read("R=100; G=200; B=150", in: .cookie, nil, explode: nil, .object) == Self.rgb.serialized)
    }

    /// What its style cannot read is named with the parameter and the style, not taken as a string.
    @Test func aValueNotWrittenAsItsStyleSaysIsMalformed() {
        let cases: [(String, ContractParameter.Place, ParameterStyle, Bool, Shape)] = [
            ("blue", .path, .label, false, .string),
            ("blue", .path, .matrix, false, .string),
            (";colour=blue", .path, .matrix, false, .string),
            (";color=blue;color=black", .path, .matrix, false, .array),
            (";color=blue;colour=black", .path, .matrix, true, .array),
            ("R,100,G", .path, .simple, false, .object),
            ("R=100,G", .path, .simple, true, .object),
            ("color=R,100,G", .query, .form, false, .object),
            ("color%5BR=100", .query, .deepObject, true, .object),
        ]
        for (sent, place, style, explode, shape) in cases {
            let read = Self.read(sent, in: place, style, explode: explode, shape)
            #expect(read.hasPrefix("malformed: the \(place.rawValue) parameter 'color' (\(style.rawValue) style, explode: \(explode))"), "\(sent): \(read)")
        }
    }

    /// Items and members are typed by their own schemas: an exploded object of the query takes
    /// only its own names, and `abc` stays a string for the validator to refuse.
    @Test func membersAreTypedByTheirSchemas() {
        #expect(Self.read("R=100&G=abc&other=1", in: .query, .form, explode: true, .object) == #"{"G":"abc","R":100}"#)
        #expect(Self.read("other=1", in: .query, .form, explode: true, .object) == "absent")
    }
}
