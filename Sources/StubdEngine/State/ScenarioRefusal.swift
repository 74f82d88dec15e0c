package import HTTPTypes

/// Why a request or an admin call could not move a scenario, as the answer says it: a key out of
/// bounds (400), or no room for one more key (507: the scenario's `maxKeys`, or the sessions'
/// storage budget). Nothing was answered or moved.
package struct ScenarioRefusal: Error, Sendable, CustomStringConvertible {
    package let status: HTTPResponse.Status
    package let title: String
    package let detail: String

    package var description: String { detail }

    init(_ capReached: ScenarioKeyCapReached) {
        status = 507
        title = "Too many scenario keys"
        detail = capReached.description
    }

    init(_ full: SessionStorageFull) {
        status = 507
        title = "Session storage full"
        detail = full.description
    }

    /// A key that is empty or longer than `ScenarioStep.maxKeyBytes`; `from`: where it came from
    /// (`the request's path id`, `the PUT's "key"`), so the user knows what to shorten.
    package static func badKey(_ key: String, scenario: String, from: String) -> ScenarioRefusal? {
        let bytes = key.utf8.count
        if bytes == 0 {
            return ScenarioRefusal(status: 400, title: "Empty scenario key",
                                   detail: "scenario '\(scenario)' was given an empty key (\(from)); a key is 1 to \(ScenarioStep.maxKeyBytes) bytes, such as \"17\"")
        }
        guard bytes > ScenarioStep.maxKeyBytes else { return nil }
        return ScenarioRefusal(status: 400, title: "Scenario key too long",
                               detail: "scenario '\(scenario)' was given a key of \(bytes) bytes (\(from)); a key is at most \(ScenarioStep.maxKeyBytes) bytes: key by an id, not by a whole value")
    }

    private init(status: HTTPResponse.Status, title: String, detail: String) {
        self.status = status
        self.title = title
        self.detail = detail
    }
}
