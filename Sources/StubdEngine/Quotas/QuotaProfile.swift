/// Which real API's answer a rejected request gets.
package enum QuotaProfile: String, Sendable, CaseIterable {
    case ietf, openweathermap, github, wunderground
}
