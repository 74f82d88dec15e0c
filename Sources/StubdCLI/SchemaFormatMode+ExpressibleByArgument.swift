public import ArgumentParser
public import StubdCore
import StubdEngine

extension SchemaFormatMode: ExpressibleByArgument {
    /// `--formats annotate|assert`, with the same words and help in check, serve and openapi import.
    static var help: ArgumentHelp {
        ArgumentHelp("Whether a string `format` (date-time, uri, email, uuid, …) is checked: annotate (the default) describes, "
                                   + "as JSON Schema 2020-12 does, except date-time and date, which a generated client decodes into a date and fails on; "
                                   + "annotate-all describes those too; assert refuses a value that breaks any format. Number widths (int32, int64) are checked in every mode.",
                     valueName: "annotate|annotate-all|assert")
    }
}
