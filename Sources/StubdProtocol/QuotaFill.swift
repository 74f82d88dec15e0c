/// `PUT /__stubd/quotas/{name}`: pre-fills what a key has used, so a test reaches the failure
/// path without making 500 calls. `used` counts are whole numbers; the server checks them.
public struct QuotaFill: Sendable, Equatable, Codable {
    public let key: String?
    /// Policy name → requests used (`["day": 500]`).
    public let used: [String: Double]
    public init(key: String?, used: [String: Int]) {
        self.key = key
        self.used = used.mapValues(Double.init)
    }
}
