import HTTPTypes
import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
@testable import StubdProtocol

/// `AdminJSONWriter` writes what `JSONEncoder` (sorted keys, slashes unescaped) writes, byte for byte:
/// for shapes Codable allows, for awkward values, and for the admin documents a real server makes.
@Suite struct AdminJSONWriterTests {
    enum Mood: String, Codable { case calm, stormy }

    struct Inner: Codable, Equatable {
        var zeta: Int
        var alpha: String?
        var list: [Double]
    }

    struct Shapes: Codable {
        var text: String
        var number: Int
        var small: Int8
        var big: UInt64
        var real: Double
        var single: Float
        var flag: Bool
        var none: String?
        var some: Int?
        var mood: Mood
        var inner: Inner
        var inners: [Inner]
        var table: [String: Inner]
        var numbered: [Int: String]
        var nested: [[String?]]
        var empty: [String: Int]
        var nothing: [Int]
        var data: Data
        var url: URL
        var date: Date
        var json: EmbeddedJSON
        var delays: [Delay]
        var fault: Fault
    }

    /// Encodes explicit nils and writes keys out of order and twice.
    struct Handwritten: Encodable {
        enum Keys: String, CodingKey { case b, a, c }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeNil(forKey: .c)
            try c.encode("first", forKey: .b)
            try c.encode(1, forKey: .a)
            try c.encode("second", forKey: .b)
        }
    }

    /// Nothing encoded at all: JSONEncoder writes `{}`.
    struct Silent: Encodable { func encode(to encoder: any Encoder) throws {} }

    /// Writes to the parent after opening a nested container beside it: the writer gives up, and
    /// AdminCoding's fallback still gives JSONEncoder's answer.
    struct Interleaved: Encodable {
        enum Keys: String, CodingKey { case outer, inner, late }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            var nested = c.nestedContainer(keyedBy: Keys.self, forKey: .outer)
            try c.encode(1, forKey: .late)
            try nested.encode(2, forKey: .inner)
        }
    }

    static let awkwardStrings = ["", "plain", "quote \" backslash \\ slash / {key}", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}\u{7F}",
                                 "é 東京 🌧️ \u{2028}\u{2029}", "Bearer <masked>"]
    static let awkwardNumbers: [Double] = [0, -0.0, 1, -1, 0.1, 1.5, 1e21, 1e-7, 123456789012345680, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 284.2, 1726660758]

    func expectSame<T: Encodable>(_ value: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = AdminCoding.encode(value)
        let reference = AdminCoding.foundationEncode(value)
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: reference, as: UTF8.self), comment, sourceLocation: sourceLocation)
    }

    @Test func everyShapeCodableAllows() throws {
        for (i, text) in Self.awkwardStrings.enumerated() {
            let inner = Inner(zeta: i, alpha: i % 2 == 0 ? nil : text, list: Self.awkwardNumbers)
            let shapes = Shapes(
                text: text, number: Int.min + i, small: -128, big: UInt64.max, real: Self.awkwardNumbers[i], single: 0.1,
                flag: i % 2 == 0, none: nil, some: i, mood: i % 2 == 0 ? .calm : .stormy, inner: inner, inners: [inner, inner],
                table: [text: inner, "b": inner, "a": inner, "B": inner, "ab": inner, "é": inner], numbered: [10: "ten", 9: "nine", 100: text],
                nested: [[nil, text], [], ["x"]], empty: [:], nothing: [], data: Data(text.utf8), url: URL(string: "https://api.example.com/a/b?q=1")!,
                date: Date(timeIntervalSinceReferenceDate: 12345.678),
                json: try EmbeddedJSON(parsing: #"{"z": [1, 2.5, null, true, "s/\u0001"], "a": {"y": {}, "x": []}}"#),
                delays: [.fixed(.milliseconds(200)), .uniform(.milliseconds(10), .seconds(1)), .lognormal(median: .milliseconds(300), sigma: 0.5)],
                fault: .connectionReset)
            expectSame(shapes, "strings[\(i)]")
        }
        for number in Self.awkwardNumbers { expectSame(number); expectSame([number]); expectSame(["n": number]) }
        expectSame(Handwritten())
        expectSame(Silent())
        expectSame([Silent(), Silent()])
        expectSame(Interleaved())
        expectSame(Optional<Int>.none)
        expectSame("top-level string")
    }

    @Test func theWriterGivesUpWhereOnePassCannotFollow() {
        #expect(AdminJSONWriter.encode(Interleaved()) == nil)
        #expect(AdminJSONWriter.encode([Double.nan]) == nil, "JSONEncoder refuses NaN; AdminCoding's fallback keeps its answer")
        #expect(AdminJSONWriter.encode(Handwritten()) != nil)
    }

    /// Each GET document of the admin API over the example Stubs folder (quotas, templates), after
    /// some requests (a convention file and a template under the wunderground quota, a miss), re-encoded by JSONEncoder after decoding: the same bytes.
    @Test func theAdminDocumentsOfARealFolder() throws {
        let stubs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Stubs")
        let engine = StubEngine(catalog: try StubCatalog.load(stubs: stubs))
        let session = engine.defaultSession
        for path in ["/api/KEY/conditions/q/CA/San_Francisco.json", "/api/KEY/forecast/q/94107.json", "/nowhere",
                     "/api/KEY/conditions/q/CA/San_Francisco.json"] {
            _ = engine.respond(to: RequestHead(method: .get, path: path, query: queryItems(["units": "metric"]),
                                               headers: fields(["Host": "127.0.0.1", "Authorization": "Bearer secret-token"])), in: session)
        }
        func document(_ call: String) throws -> Data {
            guard case .response(let response) = AdminEndpoints(engine: engine).answer(try #require(AdminEndpoint(method: .get, call: call)), query: [], body: Data(), session: session) else {
                Issue.record("\(call) did not answer at once"); return Data()
            }
            #expect(response.status == 200, "\(call): \(String(decoding: response.body, as: UTF8.self))")
            return response.body
        }
        func roundTrip<T: Codable>(_ call: String, _ type: T.Type) throws {
            let body = try document(call)
            let decoded = try AdminCoding.decode(type, from: body)
            #expect(String(decoding: body, as: UTF8.self) == String(decoding: AdminCoding.foundationEncode(decoded), as: UTF8.self), "\(call)")
        }
        try roundTrip("routes", RoutesReport.self)
        try roundTrip("hits", HitsReport.self)
        try roundTrip("requests", JournalReport.self)
        try roundTrip("quotas", QuotasReport.self)
        try roundTrip("sessions", SessionsReport.self)
        try roundTrip("health", HealthReport.self)
        try roundTrip("coverage", CoverageReport.self)
    }
}
