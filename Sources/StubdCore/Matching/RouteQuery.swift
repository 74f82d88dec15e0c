import Foundation
import HTTPTypes
import StubdProtocol

/// What a "METHOD /path" text names, read by one set of rules wherever one is written: hit counts
/// (`/__stubd/hits?route=`, `StubControl.hits`), long-polls (`hits/wait`), hit-target checks and
/// quota selectors (`routes:` in the manifest).
///
/// - `/a/b` or `GET /a/b`: a concrete path (any method without one), normalized like a request's;
/// - `GET /api/{key}/**`: a pattern, when the path has `{` or `**`;
/// - anything else: a route name (callers look names and signatures up exactly before parsing).
///
/// The method is upper-cased; `ANY` means any method. Words are separated by spaces or tabs.
package struct RouteQuery: Sendable {
    package enum Target: Sendable {
        case name(String)
        case concrete(method: MethodMatch, path: String)
        case pattern(method: MethodMatch, pattern: PathPattern)
    }

    /// Why a text that reads as a method and a path is neither.
    package enum Problem: Error, Sendable, Equatable {
        case unknownMethod(String)
        case badPattern(String)
    }

    package let text: String
    package let target: Target

    /// Parses `text`; a method or pattern that cannot be read is a `Problem` (the manifest reports
    /// it; a hit count treats it as naming nothing).
    package static func parse(_ text: String) -> Result<RouteQuery, Problem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let methodText: String
        let pathText: Substring
        if trimmed.hasPrefix("/") {
            (methodText, pathText) = ("ANY", Substring(trimmed))
        } else if let gap = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }),
                  case let rest = trimmed[gap...].drop(while: { $0 == " " || $0 == "\t" }),
                  case let word = trimmed[..<gap].uppercased(), rest.hasPrefix("/") || word == "ANY" || ConventionScanner.methods.contains(word) {
            // A known method followed by something else is a path written without its '/', not a name.
            guard rest.hasPrefix("/") else { return .failure(.badPattern("a path starts with '/': write \"\(word) /\(rest)\"")) }
            (methodText, pathText) = (word, rest)
        } else {
            return .success(RouteQuery(text: text, target: .name(text)))
        }
        guard methodText == "ANY" || ConventionScanner.methods.contains(methodText) else { return .failure(.unknownMethod(methodText)) }
        let method: MethodMatch = methodText == "ANY" ? .any : .only(HTTPRequest.Method(methodText)!)
        if !pathText.contains("{"), !pathText.contains("**") {
            return .success(RouteQuery(text: text, target: .concrete(method: method, path: RequestHead.normalize(String(pathText)))))
        }
        do {
            return .success(RouteQuery(text: text, target: .pattern(method: method, pattern: try PathPattern(parsing: String(pathText)))))
        } catch {
            return .failure(.badPattern(error.description))
        }
    }

    /// The query's method, where it names a path or a pattern.
    package var method: MethodMatch? {
        switch target {
        case .name: return nil
        case .concrete(let method, _), .pattern(let method, _): return method
        }
    }
}
