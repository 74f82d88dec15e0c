import ArgumentParser
import Foundation
import StubdCore

/// `--spec FILE`, read the same way by `check` and `serve`.
enum SpecOption {
    static func load(_ path: String, command: String) throws -> APIContract {
        do {
            return try APIContract.load(spec: URL(fileURLWithPath: path))
        } catch {
            printError("\(command): cannot read the spec \(path): \(error.description)")
            throw ExitCode(1)
        }
    }
}
