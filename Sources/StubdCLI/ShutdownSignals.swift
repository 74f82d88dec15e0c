import Foundation

/// Blocks until SIGINT or SIGTERM.
enum ShutdownSignals {
    static func wait() {
        let done = DispatchSemaphore(value: 0)
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { done.signal() }
            source.resume()
            sources.append(source)
        }
        done.wait()
        _ = sources
    }
}
