import Foundation
import StubdCore
import StubdEngine
import StubdProtocol

/// A coverage report read back from a file (`coverage show --from`, `coverage merge`), checked the
/// way a report stubd wrote would be: valid JSON, the report's fields, and hit counts that are whole
/// numbers from 0 up (a negative count would cancel a shard's real hits when merged).
enum SavedCoverageReport {
    /// The report, or why the file is not one, with the file named first.
    static func decode(_ data: Data, file: String) -> Result<CoverageReport, Failure> {
        let report: CoverageReport
        do { report = try JSONDecoder().decode(CoverageReport.self, from: data) } catch {
            return .failure(Failure(file: file, reason: reason(for: error, in: data)))
        }
        for (r, route) in report.routes.enumerated() {
            if route.hits < 0 { return .failure(Failure(file: file, reason: negative(route.hits, at: "routes[\(r)].hits (\(route.route))"))) }
            for (i, item) in route.items.enumerated() where item.hits < 0 {
                return .failure(Failure(file: file, reason: negative(item.hits, at: "routes[\(r)].items[\(i)].hits (\(route.route), \(item.id))")))
            }
        }
        for (s, scenario) in (report.scenarios ?? []).enumerated() {
            if let keys = scenario.keys, keys < 0 {
                return .failure(Failure(file: file, reason: negative(keys, at: "scenarios[\(s)].keys (\(scenario.scenario))")))
            }
            for (i, item) in scenario.items.enumerated() where item.hits < 0 {
                return .failure(Failure(file: file, reason: negative(item.hits, at: "scenarios[\(s)].items[\(i)].hits (\(scenario.scenario), \(item.id))")))
            }
        }
        return .success(report)
    }

    struct Failure: Error, CustomStringConvertible {
        let file: String
        let reason: String
        var description: String { "\(file): \(reason)" }
    }

    private static func negative(_ hits: Int, at place: String) -> String {
        "\(place) is \(hits); a hit count is a whole number from 0 to \(Int.max)"
    }

    /// Foundation's decoder calls a number it cannot hold (`1e300` where a count goes) "not valid
    /// JSON"; stubd's own parser tells the two apart and places a real syntax error.
    private static func reason(for error: any Error, in data: Data) -> String {
        let document: JSONValue
        do { document = try JSONParser.parse(data) } catch {
            return "line \(error.line), column \(error.column): not valid JSON: \(error.message)"
        }
        if case .object(let top) = document, case .array(let routes)? = top["routes"] {
            for (r, route) in routes.enumerated() {
                guard case .object(let members) = route else { continue }
                if let why = countProblem(members["hits"], at: "routes[\(r)].hits") { return why }
                guard case .array(let items)? = members["items"] else { continue }
                for (i, item) in items.enumerated() {
                    guard case .object(let fields) = item else { continue }
                    if let why = countProblem(fields["hits"], at: "routes[\(r)].items[\(i)].hits") { return why }
                }
            }
        }
        guard let error = error as? DecodingError else { return "not a coverage report: \(error)" }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(place(context.codingPath)) is not \(expected(type))"
        case .valueNotFound(let type, let context):
            return "\(place(context.codingPath)) is null; expected \(expected(type))"
        case .dataCorrupted(let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "not a coverage report: \(error)"
        }
    }

    private static func countProblem(_ value: JSONValue?, at place: String) -> String? {
        // Up to 2^63 the decoder reads the count exactly; past it no Int holds it.
        guard case .number(let n)? = value, n.rounded() != n || n < 0 || n > 9.223372036854775807e18 else { return nil }
        return "\(place) is \(n); a hit count is a whole number from 0 to \(Int.max)"
    }

    private static func place(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the document" }
        return path.reduce("") { out, key in
            if let index = key.intValue { return out + "[\(index)]" }
            return out.isEmpty ? key.stringValue : out + "." + key.stringValue
        }
    }

    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: return "a whole number"
        case is String.Type: return "a string"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default: return "what a coverage report holds there (\(type))"
        }
    }
}
