public import Foundation

extension FileHandle {
    /// Reads a child's output up to its first newline (a port, a listening address), then drains the
    /// rest on the pipe's own thread, so the child can never block on a full pipe. `output` is given
    /// everything read, in order, the first line included.
    /// `startingWith`: the first line that starts so, past any before it (a loaded spec's notices
    /// come before `stubd listening on`); what was read before it is given to `output` too.
    public func firstLine(startingWith prefix: String = "", thenDrainInto output: @escaping @Sendable (Data) -> Void = { _ in }) -> Data {
        var line = Data()
        func found() -> Data? {
            guard !prefix.isEmpty else { return line.contains(0x0A) ? line : nil }
            let text = String(decoding: line, as: UTF8.self)
            return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { Data($0.utf8) + Data([0x0A]) }
        }
        while found() == nil {
            let chunk = availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        output(line)
        readabilityHandler = { output($0.availableData) }
        return prefix.isEmpty ? line : (found() ?? line)
    }
}
