import Foundation
import Yams
import StubdEngine

/// Where a JSON pointer's value starts in one of a spec's files (YAML or JSON), as 1-based line and
/// column, so a problem or warning found on the bundled document is named where the user's editor
/// shows it. Only asked on the error and warning path: a file is parsed again the first time it is
/// asked about, and its tree kept for the next question.
final class SpecPositions: @unchecked Sendable {
    /// File key → its bytes as read (YAML files are checked for anchors before they get here).
    private let sources: [String: Data]
    private var trees: [String: Node] = [:]
    private let lock = NSLock()

    init(sources: [String: Data]) {
        self.sources = sources
    }

    /// The line and column of the value at `pointer` (`/paths/~1a/get`) in `file`, or of the nearest
    /// enclosing value that exists there (a missing key is named where its object starts).
    func of(_ pointer: String, in file: String) -> (line: Int, column: Int)? {
        guard let data = sources[file] else { return nil }
        var tokens = pointer.isEmpty ? [] : pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        if file.lowercased().hasSuffix(".json") {
            while true {
                if let found = JSONTextPosition.of(Self.pointer(tokens), in: data) { return found }
                guard !tokens.isEmpty else { return nil }
                tokens.removeLast()
            }
        }
        guard let root = tree(file, data) else { return nil }
        var node = root
        for token in tokens {
            guard let next = Self.child(of: node, token) else { break }
            node = next
        }
        return node.mark.map { ($0.line, $0.column) }
    }

    private func tree(_ file: String, _ data: Data) -> Node? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = trees[file] { return cached }
        let node = try? Yams.compose(yaml: String(decoding: data, as: UTF8.self), YAMLCoreSchema.resolver)
        trees[file] = node
        return node
    }

    private static func child(of node: Node, _ token: String) -> Node? {
        switch node {
        case .mapping(let mapping):
            return mapping.first { $0.key.string == token }?.value
        case .sequence(let sequence):
            guard let index = Int(token), String(index) == token, sequence.indices.contains(index) else { return nil }
            return sequence[index]
        default:
            return nil
        }
    }

    private static func pointer(_ tokens: [String]) -> String {
        tokens.map { "/" + JSONPointer.escape($0) }.joined()
    }
}
