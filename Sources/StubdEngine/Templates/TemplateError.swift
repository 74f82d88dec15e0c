/// A template that cannot be used, with where and what to do.
package struct TemplateError: Error, Sendable, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let message: String
    package let hint: String?
    /// Where the block this problem is about was opened: kept apart from `message`, so whoever
    /// reports it can place it in the file the template was written in.
    var opened: TemplatePosition? = nil

    package var description: String {
        "\(line):\(column): \(message)" + (opened.map { " opened at \($0.line):\($0.column)" } ?? "") + (hint.map { " (\($0))" } ?? "")
    }
}

/// Every problem in one template's text, in the order they stand in it: a user fixes them all in
/// one round instead of one per `stubd check`.
package struct TemplateErrors: Error, Sendable {
    package let all: [TemplateError]
}
