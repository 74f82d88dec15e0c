import Foundation
import HTTPTypes
package import StubdEngine

/// Compares the folder's answer with two live answers to the same request: status, content type,
/// the headers a recording keeps, and a JSON body by shape first, then by value. What differs
/// between the two live answers is volatile (a request id, a timestamp of now), reported apart
/// and never as drift; `drift.ignore` places are left out altogether.
package enum DriftComparison {
    /// The comparison ran past `deadline` (`drift --timeout` is for the whole run, comparing included).
    package struct DeadlinePassed: Error {}

    /// When the comparison must stop: checked every few thousand places, so a body of 300,000
    /// keys costs a clock read per 4,096 of them.
    struct Deadline {
        let uptimeNanoseconds: UInt64
        var visits = 0

        mutating func check() throws(DeadlinePassed) {
            visits &+= 1
            guard visits & 4095 == 0, uptimeNanoseconds != .max else { return }
            if DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds { throw DeadlinePassed() }
        }

        func checkNow() throws(DeadlinePassed) {
            if uptimeNanoseconds != .max, DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds { throw DeadlinePassed() }
        }
    }

    /// `deadline` in `DispatchTime` uptime nanoseconds; past it the comparison throws.
    package static func compare(recorded: DriftAnswer, live: DriftAnswer, again: DriftAnswer,
                                ignore: [DriftIgnoreRule] = [], deadline: UInt64 = .max) throws(DeadlinePassed) -> [DriftFinding] {
        var findings: [DriftFinding] = []
        // An answer of another status is another answer: its body is not compared with this one.
        if live.status != again.status {
            return [DriftFinding(.volatile, "status", "\(live.status.code), then \(again.status.code)")]
        }
        if recorded.status != live.status {
            return [DriftFinding(.shape, "status", "\(recorded.status.code) → \(live.status.code)")]
        }

        let types = [recorded, live, again].map { $0.header(.contentType).map(ExchangeScrubber.normalizedContentType) ?? "(none)" }
        if types[1] != types[2] {
            findings.append(DriftFinding(.volatile, "content-type", "\(types[1]), then \(types[2])"))
        } else if types[0] != types[1] {
            findings.append(DriftFinding(.shape, "content-type", "\(types[0]) → \(types[1])"))
        }
        findings += headerFindings(recorded, live, again)

        var clock = Deadline(uptimeNanoseconds: deadline)
        // An event stream is compared as the JSON document of its events (DriftEventStream).
        let isStream = RecordedEventStream.isEventStream(types[0])
        let parse: (Data) -> JSONValue? = isStream ? { DriftEventStream.json(of: $0) } : { try? JSONParser.parse($0) }
        let recordedJSON = isStream || ContentType.isJSON(mediaType: types[0]) ? parse(recorded.body) : nil
        if let recordedJSON {
            // Parsing a large body is a stage of its own: the deadline is looked at between them.
            try clock.checkNow()
            let liveJSON = parse(live.body)
            try clock.checkNow()
            let againJSON = parse(again.body)
            try clock.checkNow()
            guard let liveJSON, let againJSON else {
                if liveJSON == nil, againJSON == nil {
                    findings.append(DriftFinding(.shape, "body", "no longer JSON (\(live.body.count) bytes)"))
                } else {
                    findings.append(DriftFinding(.volatile, "body", "JSON in one live answer, not in the other"))
                }
                return findings
            }
            findings += try bodyFindings(recordedJSON, liveJSON, againJSON, ignore: ignore, deadline: &clock)
        } else if live.body != again.body {
            findings.append(DriftFinding(.volatile, "body", "\(live.body.count) bytes, then \(again.body.count) bytes, not the same"))
        } else if recorded.body != live.body {
            findings.append(DriftFinding(.value, "body", "differs (\(recorded.body.count) bytes recorded, \(live.body.count) live)"))
        }
        return findings
    }

    // MARK: Headers

    private static func headerFindings(_ recorded: DriftAnswer, _ live: DriftAnswer, _ again: DriftAnswer) -> [DriftFinding] {
        /// Kept headers but the content type, by lower-cased name; repeated ones (Set-Cookie) joined.
        func kept(_ answer: DriftAnswer) -> [String: String] {
            var out: [String: String] = [:]
            for h in answer.headers where h.name != .contentType && RecordingRules.keepsResponseHeader(h.name.canonicalName) {
                out[h.name.canonicalName, default: ""] += (out[h.name.canonicalName] == nil ? "" : ", ") + h.value
            }
            return out
        }
        let (r, l, a) = (kept(recorded), kept(live), kept(again))
        var findings: [DriftFinding] = []
        for name in Set(r.keys).union(l.keys).union(a.keys).sorted() {
            let place = "header \(name)"
            switch (r[name], l[name], a[name]) {
            case let (_, y, z) where y != z:
                findings.append(DriftFinding(.volatile, place, "\(y.map(quoted) ?? "absent"), then \(z.map(quoted) ?? "absent")"))
            case (nil, let y?, _):
                findings.append(DriftFinding(.value, place, "added (\(quoted(y)))"))
            case (let x?, nil, _):
                findings.append(DriftFinding(.value, place, "removed (was \(quoted(x)))"))
            case let (x?, y?, _) where x != y:
                findings.append(DriftFinding(.value, place, "\(quoted(x)) → \(quoted(y))"))
            default: break
            }
        }
        return findings
    }

    // MARK: JSON bodies

    private static func bodyFindings(_ recorded: JSONValue, _ live: JSONValue, _ again: JSONValue,
                                     ignore: [DriftIgnoreRule], deadline: inout Deadline) throws(DeadlinePassed) -> [DriftFinding] {
        func ignored(_ pointer: [String]) -> Bool { ignore.contains { $0.covers(pointer) } }
        var findings: [DriftFinding] = []

        // Shape: drift only where both live answers differ from the recording alike. Sets, not
        // arrays, hold the changes: an object of 80,000 changed keys was 80,000² comparisons.
        let (shapeR, shapeL, shapeA) = (try JSONShape(of: recorded, &deadline), try JSONShape(of: live, &deadline), try JSONShape(of: again, &deadline))
        var toLive: [ShapeChange] = [], toAgain: [ShapeChange] = [], between: [ShapeChange] = []
        try shapeChanges(shapeR, shapeL, [], ignored, &deadline, into: &toLive)
        try shapeChanges(shapeR, shapeA, [], ignored, &deadline, into: &toAgain)
        try shapeChanges(shapeL, shapeA, [], ignored, &deadline, into: &between)
        let inAgain = Set(toAgain), inLive = Set(toLive)
        var volatileShapes = Set<String>()
        for change in toLive {
            if inAgain.contains(change) {
                findings.append(DriftFinding(.shape, pointer(change.path), change.change))
            } else {
                volatileShapes.insert(pointer(change.path))
            }
        }
        for change in toAgain + between where !inLive.contains(change) { volatileShapes.insert(pointer(change.path)) }
        for place in volatileShapes.sorted() {
            findings.append(DriftFinding(.volatile, place, "shape differs between two live answers"))
        }

        // Values: what differs between the two live answers is volatile; the rest is drift.
        var volatileValues: [ValueChange] = []
        try valueChanges(live, again, [], [], ignored, &deadline, into: &volatileValues)
        var drifted: [ValueChange] = []
        try valueChanges(recorded, live, [], [], ignored, &deadline, into: &drifted)
        // A drifted place under a volatile one is volatile: looked up by each of its prefixes.
        let volatilePaths = Set(volatileValues.map(\.path))
        for change in drifted where !(0...change.path.count).contains(where: { volatilePaths.contains(Array(change.path.prefix($0))) }) {
            findings.append(DriftFinding(.value, pointer(change.path), change.change))
        }
        // One line per place, array indices folded: `/list/*/nonce`, not one per item.
        var seen = Set<String>()
        for change in volatileValues {
            let place = pointer(change.general)
            if seen.insert(place).inserted {
                findings.append(DriftFinding(.volatile, place, "differs between two live answers (\(change.change))"))
            }
        }
        return findings
    }

    private struct ShapeChange: Hashable {
        var path: [String]
        var change: String
    }

    private static func shapeChanges(_ a: JSONShape, _ b: JSONShape, _ path: [String], _ ignored: ([String]) -> Bool,
                                     _ deadline: inout Deadline, into out: inout [ShapeChange]) throws(DeadlinePassed) {
        try deadline.check()
        if ignored(path) { return }
        guard !a.kinds.isDisjoint(with: b.kinds) else {
            // A field sometimes null, sometimes a string, is not drift when the other answer has only strings.
            out.append(ShapeChange(path: path, change: "\(a.kindText) → \(b.kindText)"))
            return
        }
        if a.kinds.contains("object"), b.kinds.contains("object") {
            for name in Set(a.fields.keys).union(b.fields.keys).sorted() {
                let at = path + [name]
                if ignored(at) { continue }
                switch (a.fields[name], b.fields[name]) {
                case (let x?, nil): out.append(ShapeChange(path: at, change: "removed (was \(x.kindText))"))
                case (nil, let y?): out.append(ShapeChange(path: at, change: "added (\(y.kindText))"))
                case let (x?, y?): try shapeChanges(x, y, at, ignored, &deadline, into: &out)
                default: break
                }
            }
        }
        if let x = a.items, let y = b.items { try shapeChanges(x, y, path + ["*"], ignored, &deadline, into: &out) }
    }

    private struct ValueChange {
        var path: [String]
        /// The path with array indices as `*`.
        var general: [String]
        var change: String
    }

    /// Scalars that differ and arrays whose length differs, where both sides have the same kind
    /// (a place of another kind is a shape change, reported as one).
    private static func valueChanges(_ a: JSONValue, _ b: JSONValue, _ path: [String], _ general: [String],
                                     _ ignored: ([String]) -> Bool, _ deadline: inout Deadline, into out: inout [ValueChange]) throws(DeadlinePassed) {
        try deadline.check()
        if ignored(path) { return }
        switch (a, b) {
        case let (.object(x), .object(y)):
            for name in x.keys.sorted() {
                guard let left = x[name], let right = y[name] else { continue }
                try valueChanges(left, right, path + [name], general + [name], ignored, &deadline, into: &out)
            }
        case let (.array(x), .array(y)):
            if x.count != y.count { out.append(ValueChange(path: path, general: general, change: "\(x.count) items → \(y.count)")) }
            for i in 0..<min(x.count, y.count) {
                try valueChanges(x[i], y[i], path + [String(i)], general + ["*"], ignored, &deadline, into: &out)
            }
        default:
            guard JSONShape.kind(of: a) == JSONShape.kind(of: b), a != b else { return }
            out.append(ValueChange(path: path, general: general, change: "\(short(a)) → \(short(b))"))
        }
    }

    /// RFC 6901, `body` for the whole document.
    private static func pointer(_ tokens: [String]) -> String {
        tokens.isEmpty ? "body" : "/" + tokens.map(JSONPointer.escape).joined(separator: "/")
    }

    private static func short(_ value: JSONValue) -> String { clipped(value.serialized) }

    private static func quoted(_ text: String) -> String { "\"" + clipped(text) + "\"" }

    private static func clipped(_ text: String) -> String { text.count > 60 ? String(text.prefix(57)) + "…" : text }
}
