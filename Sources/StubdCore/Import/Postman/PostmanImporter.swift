package import Foundation
import HTTPTypes
import StubdEngine

/// `stubd import postman`: a Postman collection's saved example answers written into a Stubs folder
/// through StubsImport, as `stubd import har` and `stubd import wiremock` write: one stub per example,
/// the folder loaded as `serve` loads it before the import says it is done. A request with no saved
/// example is listed, not imported (there is no answer to serve). Several examples of one request
/// are told apart the way Postman's own mock server tells them apart: the first answers by default,
/// each other one when the request carries `x-mock-response-name: <its name>`.
package struct PostmanImporter {
    /// The header Postman's mock servers pick a named example by.
    static let exampleHeader = HTTPField.Name("x-mock-response-name")!

    package let settings: ImportSettings

    package init(_ settings: ImportSettings) { self.settings = settings }

    package func run(_ input: URL, name: String) throws(ImportError) -> ImportReport {
        let collection = try PostmanCollection.load(input, name: name, maxBytes: settings.maxBytes)
        guard !collection.requests.isEmpty else { throw ImportError("\(name) holds no requests (/item has no request in any folder); nothing written") }
        var candidates: [ImportCandidate] = []
        var titles: [String] = []
        var problems: [String] = []
        for request in collection.requests {
            let examples: [JSONValue] = if case .array(let list)? = request.item["response"] { list } else { [] }
            if examples.isEmpty {
                var method = "GET", target = "?"
                if case .object(let r)? = request.item["request"], case .string(let m)? = r["method"] { method = m.uppercased() }
                if let parts = try? PostmanExample.split(PostmanImporter.url(of: request.item["request"]), at: "") {
                    target = "/" + parts.segments.joined(separator: "/")
                }
                candidates.append(ImportCandidate(source: request.names.joined(separator: " / "), method: method, target: target, status: 0,
                                                  leftOut: "no saved example answer (save one in Postman: Save Response > Save as example)"))
                titles.append("")
                continue
            }
            for (i, example) in examples.enumerated() {
                guard case .object(let json) = example else { problems.append("\(name):\(request.pointer)/response/\(i): an example must be an object"); continue }
                do {
                    candidates.append(try PostmanExample(request: request, index: i, json: json, variables: collection.variables).translate(file: name))
                    let title: String = if case .string(let n)? = json["name"] { n } else { "" }
                    titles.append(title)
                } catch {
                    problems += error.problems
                }
            }
        }
        guard problems.isEmpty else { throw ImportError.all(problems) }

        // The second and later examples of one request answer when asked for by name.
        var seen: Set<String> = []
        for i in candidates.indices {
            guard var stub = candidates[i].stub else { continue }
            if seen.insert(candidates[i].identity).inserted { continue }
            let title = titles[i].trimmingCharacters(in: .whitespaces)
            guard !title.isEmpty, HTTPField.isValidValue(title) else { continue } // left to StubsImport: listed as the same request
            stub.headers[PostmanImporter.exampleHeader] = title
            stub.sample.headers[PostmanImporter.exampleHeader] = title
            candidates[i].stub = stub
            candidates[i].identity = ImportCandidate.identity(of: stub)
            candidates[i].result = "when asked for by x-mock-response-name"
            seen.insert(candidates[i].identity)
        }

        var report = ImportReport(sourceTitle: "EXAMPLE")
        let writer = try StubsImport(root: settings.root)
        writer.write(candidates, into: &report) { first in "the same request as \(first), which is imported" }
        try writer.finish(input: "collection")
        return report
    }

    static func url(of request: JSONValue?) -> JSONValue? {
        switch request {
        case .string?: request
        case .object(let r)?: r["url"]
        default: nil
        }
    }
}
