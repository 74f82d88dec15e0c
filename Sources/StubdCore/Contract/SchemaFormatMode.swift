import Foundation

/// Whether a string `format` (date-time, uri, email, …) is checked.
///
/// `annotate` is the default, as in JSON Schema 2020-12 and as most validators behave: a spec's
/// `format: uri` on Twilio's relative `/2010-04-01/…` URIs describes the field, it does not make the
/// vendor's own examples wrong. `assert` (`--formats assert`) holds values to the formats stubd
/// knows. OpenAPI's number formats (`int32`, `int64`, `float`) are checked either way: they are the
/// width a client stores the number in, not a description of text.
public enum SchemaFormatMode: String, Sendable, CaseIterable {
    case annotate
    case assert
}
