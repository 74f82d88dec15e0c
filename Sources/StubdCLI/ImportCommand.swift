import ArgumentParser

/// `stubd import …`: a Stubs folder from what people already have (a HAR capture, WireMock mappings).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Write a Stubs folder from captures and stubs made with other tools (HAR, WireMock).", subcommands: [ImportHARCommand.self, ImportWireMockCommand.self])
}
