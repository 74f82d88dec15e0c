import ArgumentParser
import Foundation
import Stubd
import StubdCore
import StubdEngine

/// `stubd openapi …`: what stubd does with an OpenAPI spec on its own.
struct OpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi", abstract: "Work with an OpenAPI spec.", subcommands: [OpenAPIImportCommand.self])
}
