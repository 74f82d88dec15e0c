package indirect enum TemplateExpression: Sendable {
    /// `request.path.zip`, `this.name`, `@index`, `request.path.[1]`: where to look.
    case path([String], text: String)
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    /// `helper arg … key=value`, as a whole tag or in parentheses.
    case call(helper: String, arguments: [TemplateExpression], hash: [String: TemplateExpression])
}
