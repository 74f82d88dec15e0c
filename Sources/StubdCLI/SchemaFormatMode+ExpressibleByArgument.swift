public import ArgumentParser
public import StubdCore

extension SchemaFormatMode: ExpressibleByArgument {
    /// `--formats annotate|assert`, with the same words and help in check, serve and openapi import.
    static var help: ArgumentHelp {
        ArgumentHelp("Whether a string `format` (date-time, uri, email, uuid, …) is checked: annotate (the default) describes, "
                                   + "as JSON Schema 2020-12 does; assert refuses a value that breaks it. Number widths (int32, int64) are checked either way.",
                     valueName: "annotate|assert")
    }
}
