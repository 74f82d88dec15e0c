package import HTTPTypes

// HTTPFields' own subscript joins every value sent under a name (`a, b`); matching, templates and
// the journal's lookups have always read the first one, so these keep that.
extension HTTPFields {
    /// The first value under `name`, compared in any case.
    package func firstValue(of name: HTTPField.Name) -> String? {
        firstValue(ofCanonicalName: name.canonicalName)
    }

    /// The same for a name already lower-cased (a manifest's condition, a template's
    /// `request.headers.NAME`), without building an `HTTPField.Name` for it.
    package func firstValue(ofCanonicalName lowercasedName: String) -> String? {
        for field in self where field.name.canonicalName == lowercasedName { return field.value }
        return nil
    }
}
