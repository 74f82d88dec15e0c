/// One thing wrong with a Stubs directory, with where it is and what to do about it.
public struct LoadProblem: Sendable, Hashable, CustomStringConvertible {
    /// Path relative to the stubs root (`api/conditions.json`, `stubd.yml`).
    public let file: String
    /// 1-based, when the problem is at a place in the file.
    public let line: Int?
    public let column: Int?
    /// What was wrong.
    public let message: String
    /// What would fix it, when there is something better to say than the message.
    public let hint: String?

    package init(file: String, line: Int? = nil, column: Int? = nil, message: String, hint: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.hint = hint
    }

    /// `file:line:column`, as far as known.
    public var location: String {
        switch (line, column) {
        case let (l?, c?): return "\(file):\(l):\(c)"
        case let (l?, nil): return "\(file):\(l)"
        default: return file
        }
    }

    public var description: String {
        hint.map { "\(location): \(message) (\($0))" } ?? "\(location): \(message)"
    }
}
