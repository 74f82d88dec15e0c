package indirect enum TemplateNode: Sendable {
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
