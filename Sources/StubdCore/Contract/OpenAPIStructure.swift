import Foundation
// The OpenAPI trait's one seam: with it, OpenAPIKit judges the document; without it (a test package's
// dependency declared with `traits: []`) OpenAPIKit is not built and a spec is refused, not read unchecked.
import StubdEngine
#if OpenAPI
import OpenAPIKit
import OpenAPIKit30

/// Whether a document is an OpenAPI document at all, decided by OpenAPIKit (its 3.0 model for 3.0.x,
/// its 3.1 model for 3.1 and 3.2): a response without a description is acceptable, a parameter
/// without `in` is not, and what is wrong is named here, at the user's file, line and pointer,
/// before stubd reads anything from it.
enum OpenAPIStructure {
    static func problems(in bundle: SpecBundle, version: String) -> [LoadProblem] {
        var view = View(bundle: bundle)
        let document = Self.withinInt64(view.inlined())
        // A document that decodes is judged without JSONDecoder (JSONValueDecoder says why); one that
        // does not is decoded again by it, for the error that names the place.
        do {
            if version.hasPrefix("3.0") {
                _ = try JSONValueDecoder.decode(OpenAPIKit30.OpenAPI.Document.self, from: document)
            } else {
                _ = try JSONValueDecoder.decode(OpenAPIKit.OpenAPI.Document.self, from: document)
            }
            return view.problems
        } catch {}
        let data = Data(document.serialized.utf8)
        do {
            if version.hasPrefix("3.0") {
                _ = try JSONDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: data)
            } else {
                _ = try JSONDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: data)
            }
            return view.problems
        } catch {
            let described = OpenAPIKit.OpenAPI.Error(from: error)
            let viewPointer = "#" + described.codingPath.map { "/" + JSONPointer.escape($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
            // OpenAPIKit's first line says which alternative failed ("Found neither a $ref nor a
            // Response in …"); what is wrong is in the explanation that follows it.
            let lines = described.localizedDescription.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            let explanation = lines.count > 1 && lines[0].hasPrefix("Found neither") ? lines.dropFirst().filter { !$0.hasSuffix("could not be decoded because:") }.joined(separator: " ")
                : lines.joined(separator: " ")
            return view.problems + [bundle.problem(at: view.bundlePointer(of: viewPointer),
                                                   "not a valid OpenAPI \(version) document: " + Self.plain(explanation),
                                                   hint: "fix the spec; an editor such as editor.swagger.io shows the same problem")]
        }
    }

    /// The document OpenAPIKit is shown: each path item and operation that is a `$ref` (a split spec's
    /// `paths: {/things: {$ref: paths/things.yaml}}`) put in place, so OpenAPIKit judges what it
    /// points at, and a map from the places so filled back to the file they came from.
    private struct View {
        let bundle: SpecBundle
        var problems: [LoadProblem] = []
        /// Pointer in the view → pointer in the bundle, for each object put in place.
        var moved: [(view: String, bundle: String)] = []

        mutating func inlined() -> JSONValue {
            guard case .object(var root) = bundle.document, case .object(var paths)? = root["paths"] else { return bundle.document }
            for template in paths.keys.sorted() {
                let viewPointer = "#/paths/" + JSONPointer.escape(template)
                let (resolved, pointer, problem) = bundle.resolve(paths[template]!, at: viewPointer)
                if let problem {
                    problems.append(problem)
                    paths[template] = nil
                    continue
                }
                guard case .object(var item) = resolved else { continue }
                if pointer != viewPointer { moved.append((viewPointer, pointer)) }
                for method in ContractOperation.methodNames {
                    guard let raw = item[method] else { continue }
                    let (op, opPointer, problem) = bundle.resolve(raw, at: pointer + "/" + method)
                    if let problem {
                        // Named once, here; OpenAPIKit judges the rest of the document without it.
                        problems.append(problem)
                        item[method] = nil
                        continue
                    }
                    if opPointer != pointer + "/" + method { moved.append((viewPointer + "/" + method, opPointer)) }
                    item[method] = op
                }
                paths[template] = .object(item)
            }
            root["paths"] = .object(paths)
            return .object(root)
        }

        /// The bundle's pointer for a pointer into the view: through the longest moved prefix.
        func bundlePointer(of viewPointer: String) -> String {
            let best = moved.filter { viewPointer == $0.view || viewPointer.hasPrefix($0.view + "/") }.max { $0.view.count < $1.view.count }
            guard let best else { return viewPointer }
            return best.bundle + viewPointer.dropFirst(best.view.count)
        }
    }

    /// OpenAPIKit's message as one line of plain text: it writes Markdown (`the **GET** endpoint`)
    /// and blank lines between its reasons, which a terminal shows as they are.
    static func plain(_ message: String) -> String {
        var text = message.replacingOccurrences(of: "**", with: "")
        text = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        // "…decoded because: Expected … but it was not.." — a reason ending in a period gets a second one.
        text = text.replacingOccurrences(of: #"\.{2,}(?=\s|$)"#, with: ".", options: .regularExpression)
        return text.trimmingCharacters(in: .whitespaces)
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
#else
/// This build of stubd was made without the OpenAPI trait, so OpenAPIKit is not there to say whether a
/// document is OpenAPI: every spec (`serve --spec`, a contract in stubd.yml, `import openapi`) is refused
/// with the one problem that says how to get a build that reads it.
enum OpenAPIStructure {
    static func problems(in bundle: SpecBundle, version: String) -> [LoadProblem] {
        [LoadProblem(file: bundle.rootName, message: "this build of stubd has no OpenAPI: enable the OpenAPI trait",
                     hint: "run `swift run stubd` without --disable-default-traits (the README's first command leaves it out); "
                           + "as a dependency, depend on stubd without `traits: []` (the default traits have it), or with traits: [\"OpenAPI\"]")]
    }
}
#endif
