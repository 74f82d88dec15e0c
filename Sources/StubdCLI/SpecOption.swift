import ArgumentParser
import Foundation
import StubdCore

/// `--spec FILE`, read the same way by `check` and `serve`.
enum SpecOption {
    static func load(_ path: String, command: String, formats: SchemaFormatMode = .annotate) throws -> APIContract {
        do {
            let contract = try APIContract.load(spec: URL(fileURLWithPath: path), formats: formats)
            for warning in contract.warnings { printError("\(command): warning: \(warning.description)") }
            return contract
        } catch {
            printError("\(command): cannot read the spec \(path): \(error.description)")
            throw ExitCode(1)
        }
    }

    /// Every `--spec` of a command that takes several (`check`, `serve`): each read as `load` reads
    /// one, then kept apart (`ContractSet`), refused when two declare one operation.
    static func load(_ paths: [String], command: String, formats: SchemaFormatMode = .annotate) throws -> ContractSet {
        let contracts = try paths.map { try load($0, command: command, formats: formats) }
        do {
            return try ContractSet(contracts)
        } catch {
            // Each clash on a line of its own, at the later spec, naming the earlier one's place.
            printError("\(command): cannot hold requests to \(paths.joined(separator: " and ")) together:\n"
                       + error.problems.map { "  " + $0.description }.joined(separator: "\n"))
            throw ExitCode(1)
        }
    }
}
