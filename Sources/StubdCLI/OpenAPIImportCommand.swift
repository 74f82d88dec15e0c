import ArgumentParser
import Foundation
import Stubd
import StubdCore
import StubdEngine

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

    @Flag(name: .long, help: "Print every warning, not only those the last import into the folder did not give.")
    var verbose = false

    @Option(name: .long, help: SchemaFormatMode.help)
    var formats: SchemaFormatMode = .annotate

    @Flag(name: .customLong("strict-spec"), help: SpecOption.strictHelp)
    var strictSpec = false

    @Flag(name: .long, help: "Into a folder that holds another spec's import: keep it, and add this spec's routes beside it.")
    var add = false

    @Flag(name: .long, help: "Into a folder that holds another spec's import: remove its routes and the files it wrote, then import this spec.")
    var replace = false

    func validate() throws {
        if add && replace { throw ValidationError("--add keeps the specs already imported into the folder and --replace removes them: give one of them") }
    }

    func run() throws {
        do throws(OpenAPIImportError) {
            let url = URL(fileURLWithPath: spec)
            let name = url.lastPathComponent
            let writer = ImportWriter(root: stubs.url)
            // A folder may hold several specs' imports; taking in another one is a choice, never a silent replacement.
            let present = writer.importedSpecs
            let others = present.filter { $0.name != name }
            if !others.isEmpty, !present.contains(where: { $0.name == name }), !add, !replace {
                let held = others.map { "\($0.name)\($0.routeCount > 0 ? " (\($0.routeCount) route\($0.routeCount == 1 ? "" : "s"))" : "")" }.joined(separator: ", ")
                throw OpenAPIImportError(["\(stubs.stubs) holds the import of \(held); importing \(name) there would replace it. "
                                          + "Pass --add to keep \(others.count == 1 ? "it" : "them") and add \(name) beside, or --replace to remove "
                                          + "\(others.count == 1 ? "its" : "their") routes and files first; nothing written"])
            }
            let kept = replace ? [] : others
            if let legacy = kept.first(where: { $0.routes == nil }) {
                throw OpenAPIImportError(["\(stubs.stubs): the import of \(legacy.name) was written by an older stubd, which did not record its part of stubd.yml; "
                                          + "import \(legacy.name) again first (or pass --replace); nothing written"])
            }
            let document = try OpenAPIDocument.load(url)
            // The contract `stubd check --spec` builds, built once: the import samples and checks its
            // examples against the schemas it compiled, and its output is checked against it below.
            // A spec it refuses is said after the import's own findings, as before; the import then
            // compiles anew (the shared compiler does not report a cached schema's problems twice).
            let compiler = APIContract.compiler(for: document.spec, formats: formats)
            var contract: APIContract?
            var refusal: SpecLoadError?
            do { contract = try APIContract.load(spec: document.spec, compiler: compiler) } catch { refusal = error }
            let output = OpenAPIImporter(spec: document, specName: name, formats: formats,
                                         reservedNames: kept.reduce(into: Set<String>()) { $0.formUnion($1.folderNames) },
                                         compiler: contract == nil ? nil : compiler).run()
            // What the spec leaves out (read leniently) and what the import left out, said the same way.
            let warnings = document.warnings + output.warnings
            if strictSpec, !warnings.isEmpty {
                for warning in warnings { printError("stubd openapi import: \(warning)") }
                throw OpenAPIImportError([SpecOption.refusal(spec, count: warnings.count) + "; nothing written"])
            }
            guard output.routes > 0 else {
                for warning in warnings { printError("stubd openapi import: warning: \(warning)") }
                let paths = Self.pathCount(document.root)
                throw OpenAPIImportError(["\(url.lastPathComponent): no operation with an answer stubd can write"
                                          + (paths == 0 ? " (the spec has no paths: \(Self.hasWebhooks(document.root) ? "its webhooks are requests the API sends, not answers stubd serves" : "nothing to answer"))"
                                             : !Self.hasOperations(document.root) ? " (its \(paths) path\(paths == 1 ? "" : "s") declare\(paths == 1 ? "s" : "") no operation: nothing to answer)"
                                             : " (the warnings above say why each was left out)")
                                          + "; nothing written"])
            }
            // Checked as `stubd check --spec` will check it, before anything is written.
            guard let contract else {
                throw OpenAPIImportError((refusal?.problems ?? []).map(\.description))
            }
            let refused = ImportSelfCheck.problems(of: output.files, against: contract)
            guard refused.isEmpty else {
                for warning in warnings { printError("stubd openapi import: warning: \(warning)") }
                throw OpenAPIImportError(refused.map { "would write \($0)" }
                    + ["nothing written: `stubd check --spec \(spec)` would refuse the folder this import writes (a bug in stubd: please report it with the spec)"])
            }
            var files = output.files
            let this = ImportedSpec(name: name, files: output.files.keys.filter { $0 != "stubd.yml" }.sorted(),
                                    routes: output.routesSection, routeCount: output.routes)
            // In the order the specs were first imported, so re-importing one rewrites only its part.
            let all = replace ? [this] : present.contains(where: { $0.name == name }) ? present.map { $0.name == name ? this : $0 } : kept + [this]
            if !kept.isEmpty {
                // One manifest, a part per spec; each part is what that spec's own import wrote.
                files["stubd.yml"] = Data((OpenAPIImporter.manifestHeader(all.map(\.name)) + "routes:\n"
                                           + all.map { "\n  # from \($0.name)\n" + ($0.routes ?? "") }.joined()).utf8)
            }
            // A re-import repeats the same warnings: only new ones are printed in full, the rest counted.
            let previous = verbose ? [] : writer.previousWarnings
            let repeated = warnings.filter { previous.contains($0) }.count
            for warning in warnings where !previous.contains(warning) {
                printError("stubd openapi import: warning: \(warning)")
            }
            let result = try writer.write(files, removing: replace ? others.flatMap(\.files) : [], warnings: warnings,
                                          specs: all, force: force)
            let besides = kept.isEmpty ? "" : " (beside \(kept.map { "\($0.name): \($0.routeCount)" }.joined(separator: ", ")))"
            let removed = result.removed.isEmpty ? "" : ", \(result.removed.count) removed (\(others.map(\.name).joined(separator: ", ")))"
            print("imported \(name) into \(stubs.stubs): \(output.routes) routes\(besides), "
                  + "\(result.written.count) files written, \(result.unchanged.count) unchanged\(removed)"
                  + Self.summary(warnings: warnings.count, repeated: repeated))
        } catch {
            printError("stubd openapi import: " + error.problems.joined(separator: "\nstubd openapi import: "))
            throw ExitCode(1)
        }
    }

    private static func pathCount(_ root: JSONValue) -> Int {
        if case .object(let members) = root, case .object(let paths)? = members["paths"] { return paths.count }
        return 0
    }

    /// Whether any path names a method (or a `$ref` that may): Twilio ships specs whose every path is `{}`.
    private static func hasOperations(_ root: JSONValue) -> Bool {
        guard case .object(let members) = root, case .object(let paths)? = members["paths"] else { return false }
        let methods = Set(ContractOperation.methodNames + ["$ref"])
        return paths.values.contains { item in
            guard case .object(let fields) = item else { return false }
            return fields.keys.contains(where: methods.contains)
        }
    }

    private static func hasWebhooks(_ root: JSONValue) -> Bool {
        if case .object(let members) = root, case .object(let hooks)? = members["webhooks"] { return !hooks.isEmpty }
        return false
    }

    /// `; 12 warnings (10 as at the last import: --verbose prints them)`, or nothing.
    static func summary(warnings: Int, repeated: Int) -> String {
        guard warnings > 0 else { return "" }
        let total = "; \(warnings) warning\(warnings == 1 ? "" : "s")"
        guard repeated > 0 else { return total + " (above)" }
        return total + " (\(repeated == warnings ? "all" : "\(repeated)") as at the last import: --verbose prints them again)"
    }
}
