import Foundation

/// A spec read for import: the document as JSON (examples and schemas are read from it, with their
/// `$ref`s followed in place), read by the contract's `SpecBundle` (other files its `$ref`s reach
/// bundled in) after OpenAPIKit has decided that it is an OpenAPI 3.0 or 3.1 document.
package struct OpenAPIDocument {
    package let root: JSONValue
    package let version: String
    package var dialect: SchemaDialect { version.hasPrefix("3.0") ? .openAPI30 : .jsonSchema2020 }

    package static func load(_ url: URL) throws(OpenAPIImportError) -> OpenAPIDocument {
        let bundle: SpecBundle
        do { bundle = try SpecBundle.load(spec: url) } catch {
            throw OpenAPIImportError(error.problems.map(\.description))
        }
        let name = bundle.rootName
        guard case .object(let members) = bundle.document else {
            throw OpenAPIImportError(["\(name): not an OpenAPI document (it should start with openapi: 3.1.0, info: and paths:)"])
        }
        if members["swagger"] != nil {
            throw OpenAPIImportError(["\(name): a Swagger 2.0 document; convert it to OpenAPI 3 first (swagger2openapi, or editor.swagger.io)"])
        }
        guard case .string(let version)? = members["openapi"], version.hasPrefix("3.0") || version.hasPrefix("3.1") || version.hasPrefix("3.2") else {
            throw OpenAPIImportError(["\(name): no 'openapi: 3.x' field; stubd imports OpenAPI 3.0, 3.1 and 3.2"])
        }
        let problems = OpenAPIStructure.problems(in: bundle.document, version: version, file: name)
        guard problems.isEmpty else { throw OpenAPIImportError(problems.map(\.description)) }
        return OpenAPIDocument(root: bundle.document, version: version)
    }

    /// What a `$ref` chain ends at, with the pointer of each step's target (for validation).
    func resolve(_ value: JSONValue, at pointer: String) -> (value: JSONValue, pointer: String) {
        var (value, pointer) = (value, pointer)
        for _ in 0..<32 {
            guard case .object(let members) = value, case .string(let ref)? = members["$ref"],
                  let tokens = JSONPointer.tokens(ofFragment: ref), let target = JSONPointer.resolve(tokens, in: root)
            else { return (value, pointer) }
            (value, pointer) = (target, ref)
        }
        return (value, pointer)
    }
}
