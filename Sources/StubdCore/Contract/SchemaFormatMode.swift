import Foundation
import StubdEngine

/// Whether a string `format` (date-time, uri, email, …) is checked.
///
/// `annotate` is the default, as in JSON Schema 2020-12 and as most validators behave: a spec's
/// `format: uri` on Twilio's relative `/2010-04-01/…` URIs describes the field, it does not make the
/// vendor's own examples wrong. A `date-time` or `date` is held to its format all the same: a client
/// generated from the spec decodes it into a date, and `"2017-01-30 18:00:00"` (OpenWeatherMap's
/// `dt_txt`) fails swift-openapi-generator's client and `JSONDecoder`'s `.iso8601` while `check` said
/// every answer kept to the spec. `annotateAll` (`--formats annotate-all`) describes those too;
/// `assert` (`--formats assert`) holds values to every format stubd knows. OpenAPI's number formats
/// (`int32`, `int64`, `float`) are checked in every mode: they are the width a client stores the
/// number in, not a description of text.
public enum SchemaFormatMode: String, Sendable, CaseIterable {
    case annotate
    case annotateAll = "annotate-all"
    case assert

    /// Whether `format` is held to in this mode.
    func asserts(_ format: SchemaFormat) -> Bool {
        switch self {
        case .assert: return true
        case .annotate: return format.isNumberWidth || format.decodesIntoDate
        case .annotateAll: return format.isNumberWidth
        }
    }
}
