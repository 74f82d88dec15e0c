package import Foundation
package import StubdEngine

/// A spec read for import: the document as JSON (examples and schemas are read from it, with their
/// `$ref`s followed in place), read by the contract's `OpenAPISpec`, so import, `check --spec` and
/// `serve --spec` take and refuse the same specs, split across files or not.
package struct OpenAPIDocument {
    package let root: JSONValue
    package let version: String
    /// What was read leniently, each at the user's file and line.
    package let warnings: [String]
    /// The spec as read, for the contract the import checks its own output against.
    package let spec: OpenAPISpec
    var bundle: SpecBundle { spec.bundle }
    package var dialect: SchemaDialect { version.hasPrefix("3.0") ? .openAPI30 : .jsonSchema2020 }

    package static func load(_ url: URL) throws(OpenAPIImportError) -> OpenAPIDocument {
        let spec: OpenAPISpec
        do { spec = try OpenAPISpec.load(spec: url) } catch {
            throw OpenAPIImportError(error.problems.map(\.description))
        }
        return OpenAPIDocument(root: spec.document, version: spec.version, warnings: spec.warnings.map(\.description), spec: spec)
    }

    /// What a `$ref` chain ends at, with the pointer of each step's target (for validation).
    func resolve(_ value: JSONValue, at pointer: String) -> (value: JSONValue, pointer: String) {
        let (target, at, _) = bundle.resolve(value, at: pointer)
        return (target, at)
    }

    /// `paths/things.yaml#/get`: where a pointer into the bundle is in the user's files.
    func location(of pointer: String) -> String {
        bundle.location(of: pointer)
    }
}
