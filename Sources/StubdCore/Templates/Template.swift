/// A response body or header written in Handlebars syntax, parsed once at load
/// (`TemplateParser`) and rendered per request (`TemplateRenderer`).
///
/// The subset is what WireMock's and Mockoon's response templates use, so theirs carry over:
/// `{{request.path.zip}}`, `{{now format='yyyy-MM-dd'}}`, `{{#each}}`, `{{#if}}`, `{{#eq}}`,
/// `{{json value}}`. Nothing is HTML-escaped: the bodies are JSON, not HTML. In a JSON answer a
/// `{{value}}` inside a string is JSON-escaped instead, so a request cannot end the string.
package struct Template: Sendable {
    let nodes: [TemplateNode]
    /// The text as written, for the admin API and error messages.
    package let source: String

    /// True when the text holds an `{{#each}}`, at any depth.
    var loops: Bool { TemplateNode.loops(nodes) }

    /// True when the text holds no `{{`: it renders to itself.
    var isLiteral: Bool { nodes.allSatisfy { if case .text = $0 { true } else { false } } }
}

indirect enum TemplateNode: Sendable {
    case text(String)
    /// `{{expression}}` or `{{{expression}}}`: its value as text. `inJSONString`: a `{{…}}` that
    /// stands inside a string of a JSON answer, whose value is escaped for it (`{{{…}}}` never is).
    case value(TemplateExpression, position: TemplatePosition, inJSONString: Bool)
    /// `{{#name arguments}}body{{else}}inverse{{/name}}`.
    case block(name: String, arguments: [TemplateExpression], hash: [String: TemplateExpression],
               body: [TemplateNode], inverse: [TemplateNode], position: TemplatePosition)

    static func loops(_ nodes: [TemplateNode]) -> Bool {
        nodes.contains { node in
            guard case let .block(name, _, _, body, inverse, _) = node else { return false }
            return name == "each" || loops(body) || loops(inverse)
        }
    }
}

indirect enum TemplateExpression: Sendable {
    /// `request.path.zip`, `this.name`, `@index`, `request.path.[1]`: where to look.
    case path([String], text: String)
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    /// `helper arg … key=value`, as a whole tag or in parentheses.
    case call(helper: String, arguments: [TemplateExpression], hash: [String: TemplateExpression])
}

/// Line and column in the text a template was read from (1-based).
struct TemplatePosition: Sendable, Equatable {
    var line: Int
    var column: Int
}

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
