import Foundation
import OpenAPIKit
import OpenAPIKit30

/// Whether a document is an OpenAPI document at all, decided by OpenAPIKit (its 3.0 model for 3.0.x,
/// its 3.1 model for 3.1 and 3.2): a missing `info`, a response without a description or a
/// parameter without `in` is named here, in OpenAPIKit's words, before stubd reads anything from it.
enum OpenAPIStructure {
    static func problems(in document: JSONValue, version: String, file: String) -> [LoadProblem] {
        let data = Data(document.serialized.utf8)
        do {
            if version.hasPrefix("3.0") {
                _ = try JSONDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: data)
            } else {
                _ = try JSONDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: data)
            }
            return []
        } catch {
            let described = OpenAPIKit.OpenAPI.Error(from: error)
            let place = described.codingPathString
            return [LoadProblem(file: file, message: "not a valid OpenAPI \(version) document: \(described.localizedDescription)"
                                    + (place.isEmpty ? "" : " (at \(place))"),
                                hint: "fix the spec; an editor such as editor.swagger.io shows the same problem")]
        }
    }
}
