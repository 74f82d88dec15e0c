import Foundation
import HTTPTypes

/// The templated parts of an answer (`template: true`, or a `.tmpl.` file): its body and any
/// header whose value holds `{{`. Parsed at load; the engine renders them per request into a
/// one-off `CannedResponse`, so delays, faults, throttling and quota headers apply as to any other.
package struct ResponseTemplate: Sendable {
    let body: Template?
    let headers: [(name: HTTPField.Name, template: Template)]
    /// Whether rendering can take long: only a loop (`{{#each}}`) does more work than the template's
    /// length and the request's values allow. The engine leaves such a template for the transport
    /// to render off its worker thread (`StubEngine.render(_:)`).
    package let rendersLong: Bool

    init(body: Template?, headers: [(name: HTTPField.Name, template: Template)]) {
        self.body = body
        self.headers = headers
        rendersLong = ([body].compactMap { $0 } + headers.map(\.template)).contains { $0.loops }
    }

    /// Parses what is templated; a header without `{{` stays canned. `json`: the body is a JSON
    /// answer's (`json:`, a `.json` file, a JSON `Content-Type`), so values inside its strings are escaped.
    /// Throws every problem in the body and in each header at once.
    static func parse(body: String?, headers: HTTPFields, parameters: [String], json: Bool)
        throws(TemplateProblems) -> ResponseTemplate {
        var problems = TemplateProblems()
        var parsedBody: Template?
        if let body {
            do { parsedBody = try TemplateParser.parse(body, parameters: parameters, json: json) } catch { problems.body = error.all }
        }
        var parsedHeaders: [(name: HTTPField.Name, template: Template)] = []
        for header in headers where header.value.contains("{{") {
            do { parsedHeaders.append((header.name, try TemplateParser.parse(header.value, parameters: parameters))) }
            catch { problems.headers.append((header.name.rawName, error.all)) }
        }
        guard problems.body.isEmpty, problems.headers.isEmpty else { throw problems }
        return ResponseTemplate(body: parsedBody, headers: parsedHeaders)
    }

    struct TemplateProblems: Error {
        var body: [TemplateError] = []
        var headers: [(name: String, errors: [TemplateError])] = []
    }

    /// This request's answer: `canned` with the rendered body and headers, and what was missing;
    /// nil when rendering passed `limit` (bytes, see `TemplateRenderer.limit`).
    func render(_ canned: CannedResponse, _ input: TemplateInput, limit: Int = .max) -> (CannedResponse?, notes: [String]) {
        var renderer = TemplateRenderer(input, limit: limit)
        let body = self.body.map { Data(renderer.render($0).utf8) } ?? canned.body
        if renderer.overLimit { return (nil, renderer.notes) }
        var headers = canned.headers
        for header in self.headers {
            let value = renderer.render(header.template)
            if renderer.overLimit { return (nil, renderer.notes) }
            // Set, not appended: a template header replaces the canned one of its name.
            headers[header.name] = value
        }
        // Events: each rendered with its own number and the time it is due (see `EventTemplates`).
        let events = canned.events.flatMap { stream in stream.templates.map { $0.render(stream, input) } }
        return (canned.rendered(body: body, headers: headers, events: events ?? canned.events), renderer.notes)
    }
}
