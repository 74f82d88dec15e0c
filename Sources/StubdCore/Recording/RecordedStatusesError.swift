import StubdEngine

/// `--only` holds an item that is neither a class (`2xx`) nor a status code (`404`).
package struct RecordedStatusesError: Error, CustomStringConvertible {
    package let item: String
    package let list: String
    package var description: String {
        "--only '\(list)': '\(item)' is not a status class (1xx to 5xx) or a status code (100 to 599); e.g. --only 2xx,3xx or --only 2xx,404"
    }
}
