/// Line and column in the text a template was read from (1-based).
package struct TemplatePosition: Sendable, Equatable {
    var line: Int
    var column: Int
}
