import ArgumentParser
import Foundation
import StubdCore
import StubdEngine

/// `stubd import postman FILE --stubs DIR`: a Postman collection's saved examples, written as `stubd record` writes (see PostmanImporter).
struct ImportPostmanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postman",
        abstract: "Write the saved example answers of a Postman collection (v2.0/v2.1) into a Stubs folder.",
        discussion: [
            "One stub per saved example, from the example's request (its method, path and query) and answer (status, headers, body), in folders or not. The URL's host part ({{baseUrl}}, https://api.example.com) is dropped, keeping the path a base URL variable holds; :id and {{id}} path segments become {id}; a query value holding {{...}} matches any value.",
            "Several examples of one request: the first answers by default, each other one when the request carries x-mock-response-name: <example name>, as on Postman's mock servers. A request with no saved example is listed, not imported. A file that is not JSON or not a v2 collection, a path with '..': nothing is written, every problem named with its JSON pointer.",
        ].joined(separator: "\n\n"))

    @Argument(help: "The collection file (Postman's Export, Collection v2.1 or v2.0).")
    var file: String

    @OptionGroup var stubs: StubsOption

    @OptionGroup var size: ImportSizeOption

    func run() throws {
        try ImportCommand.run("postman") { () throws(ImportError) in
            let report = try PostmanImporter(ImportSettings(root: stubs.url, maxBytes: size.bytes)).run(URL(fileURLWithPath: file), name: file)
            print(report.table)
            let imported = report.count(.imported)
            print("imported \(imported) of \(report.rows.count) examples and requests from \(URL(fileURLWithPath: file).lastPathComponent) into \(stubs.stubs): "
                  + "\(report.routes.count) route\(report.routes.count == 1 ? "" : "s") written, \(report.count(.alreadyThere)) already answered, "
                  + "\(report.count(.leftOut)) not imported; the folder loads as stubd serve loads it")
        }
    }
}
