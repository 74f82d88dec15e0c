public import Foundation

extension FileHandle {
    /// Reads a child's output up to its first newline (a port, a listening address), then drains the
    /// rest on a thread of its own, so the child can never block on a full pipe. `output` is given
    /// everything read, in order, the first line included.
    /// `startingWith`: the first line that starts so, past any before it (a spec's warnings, on
    /// stderr, come before `stubd listening on` when both go to one pipe); what was read before it
    /// is given to `output` too.
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
        drain(into: output)
        return prefix.isEmpty ? line : (found() ?? line)
    }

    /// Reads to the end with blocking reads on a thread of its own, handing each piece to `output`.
    ///
    /// Not `readabilityHandler`: that installs a libdispatch read source, and tearing one down while
    /// other tests set theirs up corrupts libdispatch's epoll bookkeeping on Linux. It crashed a
    /// test process with SIGSEGV in `_dispatch_event_loop_drain` in CI
    /// (swift-corelibs-libdispatch#949). A blocking read never registers with libdispatch. The
    /// thread keeps the handle open until the child's end of the pipe closes.
    public func drain(into output: @escaping @Sendable (Data) -> Void) {
        let reader = Thread { [self] in
            while case let piece = availableData, !piece.isEmpty { output(piece) }
        }
        reader.name = "child output"
        reader.start()
    }
}
