/// Why a time given to the clock (`clock: { virtual: … }`, `POST /__stubd/clock/set`) is not one:
/// the field at fault and its range.
package struct InternetDateTimeError: Error, Sendable, CustomStringConvertible {
    package let text: String
    package let problem: String

    package var description: String {
        "'\(text)' is not an RFC 3339 time: \(problem) (like 2016-08-30T00:00:00-04:00 or 2026-01-01T14:00:00.5Z)"
    }
}
