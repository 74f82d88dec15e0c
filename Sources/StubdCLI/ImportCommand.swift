import ArgumentParser

/// `stubd import …`: a Stubs folder from what people already have (a HAR capture, WireMock mappings, a Postman collection).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Write a Stubs folder from captures and stubs made with other tools (HAR, WireMock, Postman).", subcommands: [ImportHARCommand.self, ImportWireMockCommand.self, ImportPostmanCommand.self])
}
