/// One `field: value` line of a `text/event-stream` (WHATWG HTML, "Server-sent events"): the name up
/// to the first colon, the value after it less one leading space; a line with no colon is a field
/// with an empty value. The client's `ServerSentEventReader` (a stream as it arrives) and the
/// server's `.sse` file parser read a line the same way through this, so the two cannot disagree on
/// what a stub file says. Blank lines and comments (a leading `:`) are for the caller to tell first.
package struct EventStreamField: Sendable, Equatable {
    /// `event`, `data`, `id`, `retry`, or one neither reader knows.
    package let name: Substring
    /// What follows the colon, its first space dropped: `data:  x` has the value ` x`.
    package let value: Substring

    package init(line: Substring) {
        guard let colon = line.firstIndex(of: ":") else {
            name = line
            value = line[line.endIndex...]
            return
        }
        name = line[..<colon]
        let rest = line[line.index(after: colon)...]
        value = rest.first == " " ? rest.dropFirst() : rest
    }
}
