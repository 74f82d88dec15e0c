import Foundation

extension FileHandle {
    /// Reads a child's output up to its first newline (a port, a listening address), then drains the
    /// rest on the pipe's own thread, so the child can never block on a full pipe. `output` is given
    /// everything read, in order, the first line included.
    public func firstLine(thenDrainInto output: @escaping @Sendable (Data) -> Void = { _ in }) -> Data {
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        output(line)
        readabilityHandler = { output($0.availableData) }
        return line
    }
}
