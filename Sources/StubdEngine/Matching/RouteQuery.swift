import HTTPTypes
package import StubdProtocol

/// A `RouteReference` as the engine counts it: the path normalized like a request's, a pattern
/// compiled. Made once where a reference enters (hit counts `/__stubd/hits?route=`, long-polls
/// `hits/wait`, quota selectors `routes:` in the manifest) and carried typed from there: counting
/// hits or waking a long-poll never reads the text again.
///
/// - `/a/b` or `GET /a/b`: a concrete path (any method without one);
/// - `GET /api/{key}/**`: a pattern, when the path has `{` or `**`;
/// - anything else: a route name (callers look names and signatures up exactly first, by `text`).
package struct RouteQuery: Sendable, ExpressibleByStringLiteral {
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

    /// Compiles `reference`; a method or pattern that cannot be read is an error naming it.
    package init(_ reference: RouteReference) throws(RouteReferenceError) {
        text = reference.text
        switch try reference.target {
        case .name(let name):
            target = .name(name)
        case let .path(methodName, path):
            let method: MethodMatch = methodName.map { .only($0) } ?? .any
            if !path.contains("{"), !path.contains("**") {
                target = .concrete(method: method, path: RequestHead.normalize(path))
            } else {
                do { target = .pattern(method: method, pattern: try PathPattern(parsing: path)) } catch {
                    throw RouteReferenceError(text: reference.text, problem: .badPattern(error.description))
                }
            }
        }
    }

    /// A literal in a test; a malformed one is a bug there.
    package init(stringLiteral value: String) {
        do { try self.init(RouteReference(parsing: value)) } catch { fatalError(error.description) }
    }

    /// Parses `text` (the manifest's selectors, which report a `Problem` at the line).
    package static func parse(_ text: String) -> Result<RouteQuery, Problem> {
        do { return .success(try RouteQuery(RouteReference(parsing: text))) } catch {
            switch error.problem {
            case .unknownMethod(let method): return .failure(.unknownMethod(method))
            case let .pathWithoutSlash(method, path): return .failure(.badPattern("a path starts with '/': write \"\(method) /\(path)\""))
            case .badPattern(let why): return .failure(.badPattern(why))
            }
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
