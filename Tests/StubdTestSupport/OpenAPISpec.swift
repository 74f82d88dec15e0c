/// OpenAPI documents as the import and contract suites write them, the frame written once: each
/// suite passes what its test is about (a path's schema, examples, parameters) and the builder adds
/// `openapi`, `info`, `paths`, `get`, `responses`, `description` and `content` around it. Every piece
/// is YAML text without indentation; the builder indents it where it belongs, 2 spaces a level.
public enum OpenAPISpec {
    /// `openapi: version`, an `info` titled `title`, then `paths:` holding each of `paths` (from `get`,
    /// or written out as `/path:` and its path item), then `rest` (e.g. `components:`) when given.
    public static func document(version: String = "3.1.0", title: String = "t", _ paths: String..., rest: String = "") -> String {
        "openapi: \(version)\ninfo: {title: \(title), version: '1'}\npaths:\n" + paths.map { indented($0, 2) }.joined() + rest
    }

    /// `path` with one `get`: the operation's own lines (`operationId`, `parameters`) when given, then
    /// its `responses` (from `json`, or written out as `'200':` and its response).
    public static func get(_ path: String, operation: String = "", _ responses: String...) -> String {
        "\(path):\n  get:\n" + indented(operation, 4) + "    responses:\n" + responses.map { indented($0, 6) }.joined()
    }

    /// A response `status` answering `media` with `schema` (one line, or a block), and `examples` (the
    /// mapping of names to examples) when given.
    public static func json(_ status: String = "200", description: String = "ok", media: String = "application/json",
                            schema: String, examples: String? = nil) -> String {
        "'\(status)':\n  description: \(description)\n  content:\n    \(media):\n"
            + member("schema", schema, 6) + (examples.map { indented("examples:", 6) + indented($0, 8) } ?? "")
    }

    /// `key: value` for a one-line value, else `key:` and the value one level deeper.
    static func member(_ key: String, _ value: String, _ spaces: Int) -> String {
        value.contains("\n") ? indented("\(key):", spaces) + indented(value, spaces + 2) : indented("\(key): \(value)", spaces)
    }

    /// Each line of `text` behind `spaces` spaces, each ending in a newline (blank lines left out).
    static func indented(_ text: String, _ spaces: Int) -> String {
        let pad = String(repeating: " ", count: spaces)
        return text.split(separator: "\n").map { pad + $0 + "\n" }.joined()
    }
}
