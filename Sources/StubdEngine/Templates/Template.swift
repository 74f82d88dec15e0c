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
