package import Foundation
package import StubdEngine

/// A spec as both readers of specs take it (`check --spec` / `serve --spec` through `APIContract`,
/// `openapi import` through `OpenAPIDocument`): its files bundled into one document, its version
/// decided, and its structure checked by OpenAPIKit, so the two never disagree about a spec.
package struct OpenAPISpec {
    package let bundle: SpecBundle
    /// The document's `openapi` field: `3.0.3`, `3.1.0`.
    package let version: String
    /// What was read leniently (a missing `info`, description or parameter schema), each where it is.
    package let warnings: [LoadProblem]

    package var document: JSONValue { bundle.document }
    package var dialect: SchemaDialect { version.hasPrefix("3.0") ? .openAPI30 : .jsonSchema2020 }

    package static func load(spec: URL) throws(SpecLoadError) -> OpenAPISpec {
        var bundle = try SpecBundle.load(spec: spec)
        guard case .object(let root) = bundle.document else {
            throw SpecLoadError(problems: [LoadProblem(file: bundle.rootName, message: "the spec is not an object",
                                                       hint: "an OpenAPI document starts with openapi: 3.1.0, info: and paths:")])
        }
        var version: String
        if let swagger = root["swagger"] {
            guard case .string("2.0") = swagger else {
                throw SpecLoadError(problems: [bundle.problem(at: "#/swagger", "swagger: \(swagger.serialized) is not a version stubd reads",
                                                              hint: "stubd reads Swagger 2.0 and OpenAPI 3.0.x, 3.1.x and 3.2.x")])
            }
            // Read as the 3.0 document it describes; messages still name the 2.0 file and places.
            let (document, origins) = Swagger2Conversion.convert(bundle)
            bundle = bundle.with(document: document, origins: origins)
            version = "3.0.3"
        } else {
            guard case .string(let declared)? = root["openapi"] else {
                throw SpecLoadError(problems: [LoadProblem(file: bundle.rootName, message: "no 'openapi' field saying the version",
                                                           hint: "add openapi: 3.1.0 (or the 3.0.x the spec is written in) at the top")])
            }
            version = declared
        }
        guard ["3.0", "3.1", "3.2"].contains(where: { version.hasPrefix($0 + ".") || version == $0 }) else {
            throw SpecLoadError(problems: [LoadProblem(file: bundle.rootName, message: "openapi: \(version) is not a version stubd reads",
                                                       hint: "stubd reads Swagger 2.0 and OpenAPI 3.0.x, 3.1.x and 3.2.x")])
        }
        let (document, warnings, unresolved) = SpecLeniency.apply(to: bundle)
        guard unresolved.isEmpty else { throw SpecLoadError(problems: unresolved) }
        bundle = bundle.with(document: document)
        let problems = OpenAPIStructure.problems(in: bundle, version: version)
        guard problems.isEmpty else { throw SpecLoadError(problems: problems) }
        return OpenAPISpec(bundle: bundle, version: version, warnings: warnings)
    }

    /// What a `$ref` chain ends at, and the pointer of the last target (where its members are).
    /// A `$ref` that names nothing is a problem placed where it was written.
    package func resolve(_ value: JSONValue, at pointer: String) -> (value: JSONValue, pointer: String, problem: LoadProblem?) {
        bundle.resolve(value, at: pointer)
    }
}
