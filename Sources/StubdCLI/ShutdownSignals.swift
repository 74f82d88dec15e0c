import Foundation

/// SIGINT and SIGTERM, caught from the moment this is made: made before the first line is printed,
/// so a script or a test that stops `stubd` as soon as it has read that line (or a notice after it)
/// is not lost. Set up only in `wait()`, a signal that came between the line and the set-up was
/// ignored (SIG_IGN already in place, the dispatch source not yet resumed) and `stubd` ran on; a
/// test waited for it forever (ServeSpecFirstLineTests, once the log writer got faster).
final class ShutdownSignals: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var sources: [any DispatchSourceSignal] = []

    init() {
        for sig in [SIGINT, SIGTERM] {
            // Ignored first, as a dispatch signal source needs (else the default action ends the
            // process); the source sees the signal from its resume on.
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [done] in done.signal() }
            source.resume()
            sources.append(source)
        }
    }

    /// Blocks until SIGINT or SIGTERM, or returns at once if one came already.
    func wait() {
        done.wait()
    }
}
