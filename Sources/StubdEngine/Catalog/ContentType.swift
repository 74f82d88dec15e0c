import Foundation
/// The `Content-Type` a stub file is served with, chosen by its extension.
package enum ContentType {
    package static let json = "application/json; charset=utf-8"
    package static let problemJSON = "application/problem+json"
    package static let text = "text/plain; charset=utf-8"
    static let eventStream = "text/event-stream; charset=utf-8"

    private static let byExtension: [String: String] = [
        "json": json,
        "xml": "application/xml; charset=utf-8",
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "txt": text, "text": text,
        "csv": "text/csv; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "yaml": "application/yaml", "yml": "application/yaml",
        "geojson": "application/geo+json",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/x-icon",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
        "sse": eventStream,
        "pb": "application/x-protobuf", "bin": "application/octet-stream",
    ]

    /// `nil` extension or an unknown one: `application/octet-stream`.
    package static func forExtension(_ ext: String?) -> String {
        guard let ext else { return "application/octet-stream" }
        return byExtension[ext.lowercased()] ?? "application/octet-stream"
    }

    static func isJSON(extension ext: String?) -> Bool { ext?.lowercased() == "json" }

    /// `application/json`, `text/json` or any `+json` type (`application/problem+json`), parameters aside.
    package static func isJSON(mediaType: String) -> Bool {
        let type = mediaType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/json" || type == "text/json" || type.hasSuffix("+json")
    }

    /// `application/xml`, `text/xml` or any `+xml` type (`application/atom+xml`), parameters aside.
    package static func isXML(mediaType: String) -> Bool {
        let type = mediaType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/xml" || type == "text/xml" || type.hasSuffix("+xml")
    }
}
