import Foundation
import StubdEngine

/// How one field of a form or multipart request body is written (a media type's `encoding` entry):
/// which part media types it may carry and how a list or an object is spelled.
package struct ContractEncoding: Sendable {
    /// `style`: `form` (the default), `spaceDelimited`, `pipeDelimited` or `deepObject`.
    package let style: String
    /// `explode`: a list as repeated fields (`a=1&a=2`, the default for `form`) or one (`a=1,2`).
    package let explode: Bool
    /// `contentType` split at commas (`image/png, image/jpeg`); empty when the spec gives none.
    package let contentTypes: [String]

    package init(style: String? = nil, explode: Bool? = nil, contentType: String? = nil) {
        let style = style ?? "form"
        self.style = style
        self.explode = explode ?? (style == "form")
        self.contentTypes = contentType.map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        } ?? []
    }

    /// What a field gets with no `encoding` entry.
    package static let standard = ContractEncoding()
}
