import StubdEngine

/// A path, query, header or cookie parameter of an operation.
package struct ContractParameter: Sendable {
    package enum Place: String, Sendable {
        case path, query, header, cookie
    }

    /// What the schema says the value is, which decides how its text is split: a primitive is taken
    /// whole; an array's items and an object's members are separated as `style` says.
    package enum Shape: Sendable, Equatable {
        case primitive
        case array
        /// `properties` names the members an exploded form (`?offset=1&limit=123`) reads from the query;
        /// `open` when other names are members too (no `properties`, or `additionalProperties` allowing them).
        case object(properties: [String], open: Bool)
    }

    package let name: String
    /// `name` lower-cased, as a header's is compared: once, not per request.
    package let canonicalName: String
    package let place: Place
    package let required: Bool
    package let schema: JSONSchema?
    package let style: ParameterStyle
    package let explode: Bool
    package let shape: Shape
    /// The media type of a `content` parameter (`application/json`): its value is that document, not a styled value.
    package let contentType: String?

    package init(name: String, place: Place, required: Bool, schema: JSONSchema?,
                 style: ParameterStyle? = nil, explode: Bool? = nil, contentType: String? = nil) {
        self.name = name
        self.canonicalName = name.lowercased()
        self.place = place
        self.required = required
        self.schema = schema
        let style = style ?? ParameterStyle.defaultStyle(for: place)
        self.style = style
        // OpenAPI: explode defaults to true for form (and so for query and cookie parameters), false otherwise.
        self.explode = explode ?? (style == .form)
        self.shape = schema?.parameterShape ?? .primitive
        self.contentType = contentType
    }

    /// `query parameter 'color' (form style, explode: false)`, as a message names it.
    var described: String {
        let how = contentType.map { "as \($0)" } ?? "\(style.rawValue) style, explode: \(explode)"
        return "the \(place.rawValue) parameter '\(name)' (\(how))"
    }
}
