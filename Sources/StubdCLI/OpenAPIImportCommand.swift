import ArgumentParser
import Foundation
import Stubd
import StubdCore

/// `stubd openapi import FILE --stubs DIR`: a Stubs folder from a spec (see OpenAPIImporter).
struct OpenAPIImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a Stubs folder from an OpenAPI 3.x or Swagger 2.0 spec: a route per answer, examples, sampled bodies.",
        discussion: "Pick an answer per request with Prefer: code=429, Prefer: example=NAME, or both. "
            + "Re-import rewrites what it wrote, and stops without writing if a file it wrote was edited (--force overwrites).")

    @Argument(help: "The spec (YAML or JSON).")
    var spec: String

    @OptionGroup var stubs: StubsOption

    @Flag(name: .long, help: "Overwrite files edited since the last import.")
    var force = false

    func run() throws {
        do {
            let url = URL(fileURLWithPath: spec)
            let document = try OpenAPIDocument.load(url)
            let output = OpenAPIImporter(spec: document, specName: url.lastPathComponent).run()
            for warning in document.warnings + output.warnings { printError("stubd openapi import: warning: \(warning)") }
            let result = try ImportWriter(root: stubs.url).write(output.files, force: force)
            print("imported \(url.lastPathComponent) into \(stubs.stubs): \(output.routes) routes, "
                  + "\(result.written.count) files written, \(result.unchanged.count) unchanged")
        } catch {
            printError("stubd openapi import: " + error.problems.joined(separator: "\nstubd openapi import: "))
            throw ExitCode(1)
        }
    }
}
