import ArgumentParser

/// `stubd import …`: a Stubs folder from what people already have (a HAR capture).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Write a Stubs folder from captures made with other tools.", subcommands: [ImportHARCommand.self])
}
