import Foundation
import OpenAPIKit
import OpenAPIKit30

/// Whether a document is an OpenAPI document at all, decided by OpenAPIKit (its 3.0 model for 3.0.x,
/// its 3.1 model for 3.1 and 3.2): a missing `info`, a response without a description or a
/// parameter without `in` is named here, in OpenAPIKit's words, before stubd reads anything from it.
enum OpenAPIStructure {
    static func problems(in document: JSONValue, version: String, file: String) -> [LoadProblem] {
        let data = Data(Self.withinInt64(document).serialized.utf8)
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

    /// `document` with every whole number past Int64 brought within it. OpenAPIKit reads an integer
    /// schema's bounds as `Int`, so `maximum: 9223372036854775807` (int64's maximum, which a Double
    /// holds as 2^63) or `1e30` refused the whole spec ("Expected an Integer literal but found a
    /// floating point value"). Only the structure is asked of OpenAPIKit here; stubd compiles the
    /// schemas, with their numbers as written, from the document itself.
    private static func withinInt64(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let n) where n.rounded() == n && abs(n) >= 9e18: return .number(n < 0 ? -9e18 : 9e18)
        case .array(let items): return .array(items.map(withinInt64))
        case .object(let members): return .object(members.mapValues(withinInt64))
        default: return value
        }
    }
}
