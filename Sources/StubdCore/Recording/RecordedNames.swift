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

    /// A route name another tool gave (a WireMock mapping's `name`, a Postman example's) as stubd
    /// writes it, also the stem of its body's file under `__files/`: ASCII letters, digits and `_`
    /// kept, any run of anything else one `-` (`Basic valid payments token` →
    /// `Basic-valid-payments-token`), so it holds no `/`, `\\`, `..` or leading dot and means the
    /// same on every file system (no Unicode a Mac would normalise otherwise); past 64 bytes, its
    /// first 32 and a hash of the whole. Nil when nothing is left (`"---"`, `"日本"`).
    static func routeName(_ text: String) -> String? {
        var out = ""
        for scalar in text.unicodeScalars {
            let kept = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
            if kept { out.unicodeScalars.append(scalar) } else if !out.isEmpty, !out.hasSuffix("-") { out += "-" }
        }
        while out.hasSuffix("-") { out.removeLast() }
        guard !out.isEmpty else { return nil }
        guard out.utf8.count > maxBodySegmentBytes else { return out }
        var head = String(out.prefix(maxBodySegmentBytes / 2))
        while head.hasSuffix("-") { head.removeLast() }
        return head + "-" + hash(text)
    }

    /// `__files/` name for the body of a route another tool named: `Basic-valid-payments-token.json`,
    /// `…~2.json` for a second answer (`~` is never part of a name, so no two of them meet).
    static func namedBodyFile(_ name: String, index: Int, ext: String) -> String {
        index == 1 ? "\(name).\(ext)" : "\(name)~\(index).\(ext)"
    }

    /// Whether `file` (relative to `__files/`) is a name this recorder gives a body of the block
    /// keyed `key` (`bodyFile`: `…-<method>-<key>-<n>.<ext>`) or of the route it named
    /// `routeName` (`namedBodyFile`), with no `..`, `.` or empty segment and no leading `/`.
    static func isRecorderBody(_ file: String, key: String, routeName: String?) -> Bool {
        let segments = file.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = segments.last, !file.hasPrefix("/"), !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              let dot = last.lastIndex(of: "."), last[last.index(after: dot)...].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return false }
        let stem = last[..<dot]
        func index(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        if let range = stem.range(of: "-\(key)-", options: .backwards), index(stem[range.upperBound...]),
           stem[..<range.lowerBound].split(separator: "-").last?.allSatisfy({ $0.isASCII && $0.isLowercase }) == true {
            return true
        }
        guard let routeName, segments.count == 1 else { return false }
        if stem == routeName { return true }
        return stem.hasPrefix(routeName + "~") && index(stem.dropFirst(routeName.count + 1))
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
