public import Foundation

/// How the admin API's documents go on the wire, on both sides: keys sorted (stable output to
/// diff and to test), slashes as they are (`"/api/{key}"`, not `"\/api\/{key}"`).
public enum AdminCoding {
    /// The document as JSON bytes: keys sorted, slashes unescaped.
    public static func encode<T: Encodable>(_ value: T) -> Data {
        // One pass into bytes (see AdminJSONWriter); JSONEncoder for what that cannot follow.
        if let bytes = AdminJSONWriter.encode(value) { return Data(bytes) }
        return foundationEncode(value)
    }

    /// `encode` through Foundation's JSONEncoder: the reference AdminJSONWriter is tested against.
    static func foundationEncode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // These documents hold only strings, numbers, booleans, arrays and objects: encoding cannot fail.
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    /// Reads a document of `type` from JSON bytes; throws `DecodingError` when they hold some other shape.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}
