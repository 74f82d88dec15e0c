import ArgumentParser

/// `stubd export …`: a Stubs folder in other tools' formats.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write a Stubs folder in other tools' formats.", subcommands: [ExportHARCommand.self])
}
