import ArgumentParser
import Foundation
import StubdCore
import StubdEngine

/// `stubd import wiremock DIR|FILE --stubs DIR`: WireMock stub mappings, written as `stubd record` writes (see WireMockImporter).
struct ImportWireMockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wiremock",
        abstract: "Write WireMock stub mappings (mappings/*.json and __files/) into a Stubs folder.",
        discussion: [
            "Give WireMock's root folder (mappings/ and __files/), its mappings/ folder, or one mapping file (one stub, or {\"mappings\": [...]}). Each mapping becomes a convention file or a route in stubd.recorded.yml: url/urlPath/urlPathTemplate, urlPattern/urlPathPattern where the regex is a stubd path ({name} segments, a trailing /**), equalTo query and header conditions, an equalToJson or contains body, status, headers, body/jsonBody/base64Body/bodyFileName, fixedDelayMilliseconds, priority, scenarios (scenarioName, requiredScenarioState, newScenarioState onto scenario:, whenState:, thenState:).",
            "A matcher stubd has no equal for comes over looser, and the table says so under the mapping; a fault becomes stubd's (CONNECTION_RESET_BY_PEER connection_reset, EMPTY_RESPONSE empty_response, MALFORMED_RESPONSE_CHUNK truncated_body, in part); a mapping stubd cannot say (a regex beyond stubd paths, RANDOM_DATA_THEN_CLOSE, a proxy) is listed as not imported and the rest come over. A file that is not a mapping, a body file missing or outside __files/ ('..'), base64 that is not: nothing is written, every problem named with its file and JSON pointer.",
        ].joined(separator: "\n\n"))

    @Argument(help: "WireMock's root folder, its mappings/ folder, or a mapping file.")
    var input: String

    @OptionGroup var stubs: StubsOption

    @OptionGroup var size: ImportSizeOption

    func run() throws {
        try ImportCommand.run("wiremock") { () throws(ImportError) in
            let report = try WireMockImporter(ImportSettings(root: stubs.url, maxBytes: size.bytes)).run(URL(fileURLWithPath: input), name: input)
            print(report.table)
            let imported = report.count(.imported), partial = report.partialCount
            print("imported \(imported) of \(report.rows.count) mappings from \(input) into \(stubs.stubs): \(imported - partial) whole, \(partial) in part, "
                  + "\(report.count(.alreadyThere)) already answered, \(report.count(.leftOut)) not imported; the folder loads as stubd serve loads it")
        }
    }
}
