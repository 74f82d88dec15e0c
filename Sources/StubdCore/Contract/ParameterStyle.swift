import StubdEngine

/// How a parameter's value is written into its path segment, query, header or cookie (OpenAPI's
/// `style`, after RFC 6570): `color` = ["blue", "black", "brown"] is `.blue.black.brown` as a label,
/// `;color=blue,black,brown` in matrix style, `color=blue&color=black&color=brown` as an exploded form.
package enum ParameterStyle: String, Sendable, CaseIterable {
    case matrix, label, form, simple, spaceDelimited, pipeDelimited, deepObject

    /// OpenAPI's default for a location: form for query and cookie, simple for path and header.
    package static func defaultStyle(for place: ContractParameter.Place) -> ParameterStyle {
        switch place {
        case .query, .cookie: return .form
        case .path, .header: return .simple
        }
    }
}
