import Foundation
import HTTPTypes

/// Compares the folder's answer with two live answers to the same request: status, content type,
/// the headers a recording keeps, and a JSON body by shape first, then by value. What differs
/// between the two live answers is volatile (a request id, a timestamp of now), reported apart
/// and never as drift; `drift.ignore` places are left out altogether.
package enum DriftComparison {
    package static func compare(recorded: DriftAnswer, live: DriftAnswer, again: DriftAnswer,
                                ignore: [DriftIgnoreRule] = []) -> [DriftFinding] {
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

        let recordedJSON = ContentType.isJSON(mediaType: types[0]) ? try? JSONParser.parse(recorded.body) : nil
        if let recordedJSON {
            let liveJSON = try? JSONParser.parse(live.body), againJSON = try? JSONParser.parse(again.body)
            guard let liveJSON, let againJSON else {
                if liveJSON == nil, againJSON == nil {
                    findings.append(DriftFinding(.shape, "body", "no longer JSON (\(live.body.count) bytes)"))
                } else {
                    findings.append(DriftFinding(.volatile, "body", "JSON in one live answer, not in the other"))
                }
                return findings
            }
            findings += bodyFindings(recordedJSON, liveJSON, againJSON, ignore: ignore)
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
                                     ignore: [DriftIgnoreRule]) -> [DriftFinding] {
        func ignored(_ pointer: [String]) -> Bool { ignore.contains { $0.covers(pointer) } }
        var findings: [DriftFinding] = []

        // Shape: drift only where both live answers differ from the recording alike.
        let (shapeR, shapeL, shapeA) = (JSONShape(of: recorded), JSONShape(of: live), JSONShape(of: again))
        var toLive: [ShapeChange] = [], toAgain: [ShapeChange] = [], between: [ShapeChange] = []
        shapeChanges(shapeR, shapeL, [], ignored, into: &toLive)
        shapeChanges(shapeR, shapeA, [], ignored, into: &toAgain)
        shapeChanges(shapeL, shapeA, [], ignored, into: &between)
        var volatileShapes = Set<String>()
        for change in toLive {
            if toAgain.contains(change) {
                findings.append(DriftFinding(.shape, pointer(change.path), change.change))
            } else {
                volatileShapes.insert(pointer(change.path))
            }
        }
        for change in toAgain + between where !toLive.contains(change) { volatileShapes.insert(pointer(change.path)) }
        for place in volatileShapes.sorted() {
            findings.append(DriftFinding(.volatile, place, "shape differs between two live answers"))
        }

        // Values: what differs between the two live answers is volatile; the rest is drift.
        var volatileValues: [ValueChange] = []
        valueChanges(live, again, [], [], ignored, into: &volatileValues)
        var drifted: [ValueChange] = []
        valueChanges(recorded, live, [], [], ignored, into: &drifted)
        for change in drifted where !volatileValues.contains(where: { change.path.starts(with: $0.path) }) {
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

    private struct ShapeChange: Equatable {
        var path: [String]
        var change: String
    }

    private static func shapeChanges(_ a: JSONShape, _ b: JSONShape, _ path: [String], _ ignored: ([String]) -> Bool,
                                     into out: inout [ShapeChange]) {
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
                case let (x?, y?): shapeChanges(x, y, at, ignored, into: &out)
                default: break
                }
            }
        }
        if let x = a.items, let y = b.items { shapeChanges(x, y, path + ["*"], ignored, into: &out) }
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
                                     _ ignored: ([String]) -> Bool, into out: inout [ValueChange]) {
        if ignored(path) { return }
        switch (a, b) {
        case let (.object(x), .object(y)):
            for name in x.keys.sorted() {
                guard let left = x[name], let right = y[name] else { continue }
                valueChanges(left, right, path + [name], general + [name], ignored, into: &out)
            }
        case let (.array(x), .array(y)):
            if x.count != y.count { out.append(ValueChange(path: path, general: general, change: "\(x.count) items → \(y.count)")) }
            for i in 0..<min(x.count, y.count) {
                valueChanges(x[i], y[i], path + [String(i)], general + ["*"], ignored, into: &out)
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
