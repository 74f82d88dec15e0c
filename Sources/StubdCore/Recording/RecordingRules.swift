import Foundation
package import StubdEngine

/// What the recorder keeps out of the folder and what it matches on.
package struct RecordingRules: Sendable {
    /// `--secret NAME=VALUE`: VALUE is replaced wherever it appears (a path segment becomes `{NAME}`).
    package var secrets: [NamedSecret]
    /// Request headers a recorded route matches on (lower-cased); none by default.
    package var matchHeaders: Set<String>
    /// The real API's origin (`https://api.example.com`), so a `Location` pointing there points at stubd.
    package var targetOrigin: String
    /// `--pretty-json`: JSON bodies written indented with sorted keys. Off by default: a recording
    /// keeps the API's bytes (key order, `1.0` spelt as sent), so a replay is byte-for-byte.
    package var prettyJSON: Bool
    /// `--only`: the answer statuses written; the others are passed on only.
    package var statuses: RecordedStatuses

    /// Response headers worth replaying besides the body's type: where to go next, how much
    /// quota is left (the point of stubd), and what a browser needs to let a page read the answer
    /// (`Access-Control-*`: without them a replayed CORS preflight or cross-origin answer is refused).
    static func keepsResponseHeader(_ lowered: String) -> Bool {
        lowered == "content-type" || lowered.hasPrefix("access-control-") || lowered == "location" || lowered == "retry-after" || lowered == "link"
            || lowered == "set-cookie" || lowered.hasPrefix("x-ratelimit") || lowered.hasPrefix("ratelimit")
            || lowered.hasPrefix("x-rate-limit")
    }

    package init(secrets: [NamedSecret] = [], matchHeaders: [String] = [], targetOrigin: String = "",
                 prettyJSON: Bool = false, statuses: RecordedStatuses = .all) {
        self.secrets = secrets
        self.statuses = statuses
        self.prettyJSON = prettyJSON
        self.matchHeaders = Set(matchHeaders.map { $0.lowercased() })
        self.targetOrigin = targetOrigin
    }
}
