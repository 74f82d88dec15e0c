import Foundation
import StubdProtocol
import StubdEngine

/// How a recorded request becomes names that mean exactly that request to the catalog, and no
/// more: the convention gives meaning to parts of a file name (a method infix `.POST`, a `.tmpl`
/// infix, a `{param}`, a leading dot, the extension), and a manifest path to `{param}` and `**`.
enum RecordedNames {
    /// A file name may be 255 bytes (Linux and macOS); room is left for a method infix and an extension.
    static let maxSegmentBytes = 200
    /// Past this, a convention file's path gets unwieldy (and nears PATH_MAX with the folder's own).
    static let maxConventionPathBytes = 1024
    /// A body's name under `__files/` keeps segments up to this long as they are.
    static let maxBodySegmentBytes = 64

    /// Why `path` cannot be a manifest route's path as it stands (`{` and `}` open a parameter,
    /// `**` is a wildcard), or nil. `{NAME}` segments of `--secret` names are parameters on purpose.
    static func patternProblem(_ path: String, secretNames: [String]) -> String? {
        for segment in path.split(separator: "/") {
            if secretNames.contains(where: { segment == "{\($0)}" }) { continue }
            if segment.contains("{") || segment.contains("}") {
                return "its path segment '\(segment.prefix(80))' holds '{' or '}', which a stubd path reads as a parameter"
            }
            if segment == "**" { return "its path segment '**' is a wildcard in a stubd path" }
        }
        return nil
    }

    /// The convention file that answers `method path` and nothing else, or nil when the name
    /// would say more than the request (or cannot be a file name): the caller writes a manifest
    /// route instead, whose path is literal.
    static func conventionFile(method: String, path: String, ext: String, secretNames: [String]) -> String? {
        guard path.hasPrefix("/"), !path.hasSuffix("/"), patternProblem(path, secretNames: secretNames) == nil else { return nil }
        let segments = path.split(separator: "/").map(String.init)
        guard let last = segments.last else { return nil }
        for segment in segments {
            // A dot-file or dot-folder is never served; a long name cannot be a file.
            if segment.hasPrefix(".") || segment.utf8.count > maxSegmentBytes { return nil }
            if segment.contains("{"), !secretNames.contains(where: { segment == "{\($0)}" }) { return nil }
        }
        if segments.first == "__files" { return nil }
        if segments.count == 1, ConventionScanner.manifestNames.contains(last) { return nil }
        // What the scanner reads off the name before the extension: `.tmpl` makes a template and
        // `.POST` a method, so a request whose own name ends that way cannot be written as a file.
        let stem = last.fileExtension == ext ? String(last.dropLast(ext.count + 1)) : last
        if let infix = stem.fileExtension, infix == "tmpl" || ConventionScanner.methods.contains(infix) { return nil }
        var relative = segments.dropLast().joined(separator: "/")
        relative += (relative.isEmpty ? "" : "/") + stem
        if method != "GET" { relative += "." + method }
        relative += "." + ext
        return relative.utf8.count > maxConventionPathBytes ? nil : relative
    }

    /// `__files/` name for a body: readable (the path, the method), unique (the request's key and
    /// the answer's place in a sequence), and short enough for any file system.
    static func bodyFile(method: String, path: String, key: String, index: Int, ext: String) -> String {
        var segments = path.split(separator: "/").map { $0.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "") }
            .filter { !$0.isEmpty && !$0.hasPrefix(".") && $0 != "**" }.map(shortened)
        if segments.joined(separator: "/").utf8.count > 4 * maxBodySegmentBytes { segments = Array(segments.suffix(1)) }
        let base = (segments.isEmpty ? "root" : segments.joined(separator: "/")).replacingOccurrences(of: ".\(ext)", with: "")
        return "\(base)-\(method.lowercased())-\(key)-\(index).\(ext)"
    }

    /// A segment as it is, or its first bytes and a hash of the whole: the same segment always
    /// gets the same name, two long ones that start alike get two.
    static func shortened(_ segment: String) -> String {
        guard segment.utf8.count > maxBodySegmentBytes else { return segment }
        var prefix = ""
        for character in segment {
            if prefix.utf8.count + String(character).utf8.count > maxBodySegmentBytes / 2 { break }
            prefix.append(character)
        }
        return prefix + "~" + hash(segment)
    }

    /// 8 hex digits of FNV-1a: stable from one run (and machine) to the next, unlike `hashValue`.
    static func hash(_ text: String) -> String {
        String(String(FNV1a(text.utf8).value, radix: 16).suffix(8)).leftPadded(to: 8)
    }
}
