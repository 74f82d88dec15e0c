import Foundation
/// A `drift.ignore` entry of the manifest: a JSON pointer into an answer's body (`/meta/generated`),
/// or a simple glob of one (`/list/*/dt`: `*` is any one key or index, `**` any number of them).
/// A rule silences the place it names and everything under it, in every route's answer: a field
/// the user knows changes (a timestamp, a request id) should not be read as drift on every run.
package struct DriftIgnoreRule: Sendable, Hashable, CustomStringConvertible {
    enum Token: Hashable {
        case key(String)
        /// `*`: one key or array index.
        case one
        /// `**`: zero or more keys or indices.
        case any
    }

    /// As written in the manifest.
    package let text: String
    let tokens: [Token]

    /// Nil with the reason when `text` is not a pointer: the manifest reports it at its place.
    package init(parsing text: String) throws(PatternError) {
        guard text.hasPrefix("/") else {
            throw PatternError("'\(text)' is not a JSON pointer: a pointer starts with '/', as in /list/*/dt (an empty pointer would ignore the whole body)")
        }
        self.text = text
        tokens = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { raw in
            switch raw {
            case "*": return .one
            case "**": return .any
            default: return .key(raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~"))
            }
        }
    }

    package var description: String { text }

    /// Whether the rule names `pointer` (its unescaped tokens) or a place above it.
    package func covers(_ pointer: [String]) -> Bool {
        DriftIgnoreRule.covers(tokens[...], pointer[...])
    }

    private static func covers(_ rule: ArraySlice<Token>, _ pointer: ArraySlice<String>) -> Bool {
        guard let first = rule.first else { return true } // the rule is used up: this place is under it
        switch first {
        case .any:
            // `**` takes nothing, or one more token and stays.
            if covers(rule.dropFirst(), pointer) { return true }
            return !pointer.isEmpty && covers(rule, pointer.dropFirst())
        case .one:
            return !pointer.isEmpty && covers(rule.dropFirst(), pointer.dropFirst())
        case .key(let key):
            // A shape found inside an array's items is at `*`: a rule naming one index names that too.
            guard let token = pointer.first, token == key || token == "*" else { return false }
            return covers(rule.dropFirst(), pointer.dropFirst())
        }
    }
}
