import ArgumentParser
import Foundation
import StubdCore
import StubdEngine

/// `--spec FILE`, read the same way by `check` and `serve`.
enum SpecOption {
    /// `--strict-spec`, said the same way by every command that reads a spec.
    static let strictHelp = ArgumentHelp("Refuse the spec where stubd would read a part leniently or leave it out (each is otherwise a warning "
                                         + "at its file:line and the rest is used): for a spec you own and want kept exact.")

    static func load(_ path: String, command: String, formats: SchemaFormatMode = .annotate, strict: Bool = false) throws -> APIContract {
        let contract: APIContract
        do {
            contract = try APIContract.load(spec: URL(fileURLWithPath: path), formats: formats)
        } catch {
            printError("\(command): cannot read the spec \(path): \(error.description)")
            throw ExitCode(1)
        }
        guard strict, !contract.warnings.isEmpty else {
            for warning in contract.warnings { printError("\(command): warning: \(warning.description)") }
            return contract
        }
        for warning in contract.warnings { printError("\(command): \(warning.description)") }
        printError("\(command): " + refusal(path, count: contract.warnings.count))
        throw ExitCode(1)
    }

    /// Every `--spec` of a command that takes several (`check`, `serve`): each read as `load` reads
    /// one, then kept apart (`ContractSet`), refused when two declare one operation.
    static func load(_ paths: [String], command: String, formats: SchemaFormatMode = .annotate, strict: Bool = false) throws -> ContractSet {
        let contracts = try paths.map { try load($0, command: command, formats: formats, strict: strict) }
        do {
            return try ContractSet(contracts)
        } catch {
            // Each clash on a line of its own, at the later spec, naming the earlier one's place.
            printError("\(command): cannot hold requests to \(paths.joined(separator: " and ")) together:\n"
                       + error.problems.map { "  " + $0.description }.joined(separator: "\n"))
            throw ExitCode(1)
        }
    }

    /// The last line of a `--strict-spec` refusal, after the parts it refused.
    static func refusal(_ path: String, count: Int) -> String {
        "--strict-spec refuses \(path): \(count) part\(count == 1 ? "" : "s") above would be read leniently or left out; "
            + "fix \(count == 1 ? "it" : "them") in the spec, or leave out --strict-spec to use the rest with a warning each"
    }
}
