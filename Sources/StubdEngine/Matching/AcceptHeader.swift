import Foundation

/// A request's `Accept` header (RFC 9110 §12.5.1), read once: which of the media types an answer
/// can be sent in the client takes, and which it prefers.
///
/// Each offered type takes the quality of the most specific range that covers it
/// (`text/html;level=1` is not special: parameters other than `q` are ignored, as most servers do),
/// so `*/*;q=0.1, application/json` ranks JSON first and anything else last, and `application/*;q=0`
/// refuses every `application/` type but one named with its own quality. The best offer has the highest
/// quality; ties go to the more specific range, then to the order the offers are given in (the
/// server's own preference). No header, or one that is empty, takes anything.
package struct AcceptHeader: Sendable {
    struct Range {
        let type: Substring
        let subtype: Substring
        let quality: Double
        /// 2 for `type/subtype`, 1 for `type/*`, 0 for `*/*`.
        var specificity: Int { type == "*" ? 0 : subtype == "*" ? 1 : 2 }
    }
    let ranges: [Range]

    /// `value` nil or blank: the client takes anything. A range that does not parse is skipped.
    package init(_ value: String?) {
        var ranges: [Range] = []
        for item in (value ?? "").lowercased().split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let typePart = parts.first else { continue }
            let pieces = typePart.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty, pieces[0] != "*" || pieces[1] == "*" else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0] == "q" { quality = Double(pair[1]).map { min(max($0, 0), 1) } ?? 0 }
            }
            ranges.append(Range(type: Substring(pieces[0]), subtype: Substring(pieces[1]), quality: quality))
        }
        self.ranges = ranges
    }

    /// True when the request said nothing about what it takes.
    package var takesAnything: Bool { ranges.isEmpty }

    /// The quality the client gives `mediaType` (parameters aside) and the specificity of the range
    /// that says so; nil when no range covers it. An offer that is itself a range (`application/*`
    /// in a spec) is covered by any range that overlaps it.
    func quality(of mediaType: String) -> (quality: Double, specificity: Int)? {
        if ranges.isEmpty { return (1, 0) }
        let bare = mediaType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        let pieces = bare.split(separator: "/", maxSplits: 1)
        guard pieces.count == 2 else { return nil }
        let (type, subtype) = (pieces[0], pieces[1])
        var best: Range?
        for range in ranges {
            let typeFits = range.type == "*" || type == "*" || range.type == type
            let subtypeFits = range.subtype == "*" || subtype == "*" || range.subtype == subtype
            guard typeFits, subtypeFits else { continue }
            if best == nil || range.specificity > best!.specificity { best = range }
        }
        return best.map { ($0.quality, $0.specificity) }
    }

    /// Whether the client takes `mediaType` at all (a quality above 0).
    package func accepts(_ mediaType: String) -> Bool { (quality(of: mediaType)?.quality ?? 0) > 0 }

    /// The index in `offers` of the one to send; nil when the client takes none of them.
    package func best(of offers: [String]) -> Int? {
        var best: (index: Int, quality: Double, specificity: Int)?
        for (i, offer) in offers.enumerated() {
            guard let (q, s) = quality(of: offer), q > 0 else { continue }
            if best == nil || q > best!.quality || (q == best!.quality && s > best!.specificity) { best = (i, q, s) }
        }
        return best?.index
    }
}
