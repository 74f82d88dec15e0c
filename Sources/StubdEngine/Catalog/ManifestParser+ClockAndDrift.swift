import Foundation
import Yams

extension ManifestParser {
    mutating func parseClock(_ node: Node) -> ClockSetting {
        if let text = node.string, node.mapping == nil {
            if text == "system" { return .system }
            add(node, "unknown clock '\(text)'", hint: "clock: system, or clock: { virtual: \"2016-08-30T00:00:00-04:00\" }")
            return .system
        }
        guard let map = mapping(node, "clock") else { return .system }
        checkKeys(map, ["virtual"], in: "clock")
        guard let v = map["virtual"], let text = string(v, "virtual") else {
            add(node, "clock needs 'virtual' with a start time", hint: "clock: { virtual: \"2016-08-30T00:00:00-04:00\" }")
            return .system
        }
        let date: Date
        do { date = try InternetDateTime(parsing: text).date } catch {
            add(v, "clock.virtual '\(text)': \(error.problem)", hint: "an RFC 3339 time like 2016-08-30T00:00:00-04:00 or 2026-01-01T00:00:00Z")
            return .system
        }
        guard SessionClock.range.contains(date) else {
            add(v, "'\(text)' is outside the clock's range", hint: "a time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z")
            return .system
        }
        return .virtual(start: date)
    }

    /// `drift: { ignore: ["/list/*/dt", /meta/generated] }`, each rule checked where it is written.
    mutating func parseDrift(_ node: Node) -> [DriftIgnoreRule] {
        guard let map = mapping(node, "drift") else { return [] }
        checkKeys(map, ["ignore"], in: "drift")
        guard let list = map["ignore"] else { return [] }
        guard case .sequence(let items) = list else {
            add(list, "drift.ignore must be a list of JSON pointers", hint: "ignore: [\"/list/*/dt\", /meta/generated]")
            return []
        }
        var rules: [DriftIgnoreRule] = []
        for item in items {
            guard let text = string(item, "drift.ignore") else { continue }
            do { rules.append(try DriftIgnoreRule(parsing: text)) } catch {
                add(item, "drift.ignore: \(error.description)", hint: "like /meta/generated, \"/list/*/dt\" or \"/**/updated_at\"")
            }
        }
        return rules
    }
}
