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
}
