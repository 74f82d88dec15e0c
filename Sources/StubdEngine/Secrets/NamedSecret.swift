/// `--secret NAME=VALUE`: a value that must never reach a file or a log line, and the name that
/// stands for it there (`<NAME>` in text, `{NAME}` as a recorded path segment).
public struct NamedSecret: Sendable, Hashable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// What a malformed `--secret` is told; it names the flag and the name, never the value.
    package struct ParseError: Error, CustomStringConvertible {
        package let description: String
    }

    /// `key=abc123`. The name must be a plain identifier: it becomes a path segment's `{NAME}`
    /// and a placeholder, so `../x` or `a/b` could put a file outside the folder.
    package init(parsing text: String) throws(ParseError) {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex, text.index(after: eq) != text.endIndex else {
            throw ParseError(description: "--secret takes NAME=VALUE with both parts (e.g. --secret key=abc123)")
        }
        let name = String(text[..<eq])
        guard SecretNames.isPlainIdentifier(name) else {
            throw ParseError(description: "--secret NAME must be a plain identifier (letters, digits, '_' or '-', starting with a letter "
                             + "or '_'), as it becomes {NAME} in recorded paths; got '\(name.prefix(60))'")
        }
        self.init(name: name, value: String(text[text.index(after: eq)...]))
    }

    /// How the value is shown wherever it would have appeared.
    package var placeholder: String { "<\(name)>" }
}
