import Foundation
package import HTTPTypes
import StubdEngine

/// `--only 2xx,3xx,429`: the answer statuses a recording keeps; the others are passed on to the
/// client but not written. Without `--only` every status is kept: a 429 with `Retry-After`, a 503
/// then a 200, a 404 for a missing item are what tests need most and a real API gives only on a
/// bad day, so dropping them by default would lose them without a word.
package struct RecordedStatuses: Sendable, Equatable, CustomStringConvertible {
    /// `2xx`-style classes (the hundreds digit) and exact codes.
    package let classes: Set<Int>
    package let codes: Set<Int>
    /// As given, for the log's "not in --only …".
    package let description: String

    /// Every status.
    package static let all = RecordedStatuses(classes: [1, 2, 3, 4, 5], codes: [], description: "1xx,2xx,3xx,4xx,5xx")

    private init(classes: Set<Int>, codes: Set<Int>, description: String) {
        self.classes = classes
        self.codes = codes
        self.description = description
    }

    /// Reads `2xx,3xx,404`; the error says which item is wrong and what is right.
    package init(parsing text: String) throws(RecordedStatusesError) {
        var classes: Set<Int> = []
        var codes: Set<Int> = []
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for item in items {
            let lowered = item.lowercased()
            if lowered.count == 3, lowered.hasSuffix("xx"), let digit = Int(lowered.prefix(1)), (1...5).contains(digit) {
                classes.insert(digit)
            } else if item.count == 3, let code = Int(item), (100...599).contains(code) {
                codes.insert(code)
            } else {
                throw RecordedStatusesError(item: item, list: text)
            }
        }
        self.init(classes: classes, codes: codes, description: items.joined(separator: ","))
    }

    package func keeps(_ status: HTTPResponse.Status) -> Bool {
        codes.contains(status.code) || classes.contains(status.code / 100)
    }
}
