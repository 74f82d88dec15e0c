import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls a `URLProtocol`'s client in order, once each, and none after the load stopped or ended.
///
/// Apple's URLSession wants its protocol's client called on the thread, in the run loop mode, that
/// called `startLoading` (as its CustomHTTPProtocol sample does); there the calls are queued on that
/// run loop (written to Apple's documentation; not run on a Mac here). Linux's Foundation queues
/// them itself, so they are made in order from a serial queue.
final class ClientCalls: @unchecked Sendable {
    private let client: (any URLProtocolClient)?
    /// Held until the load ends or stops (a cycle through the protocol's `delivery`, broken then).
    private var owner: URLProtocol?
    private let state = NSLock()
    private var over = false
    #if canImport(Darwin)
    private let runLoop = CFRunLoopGetCurrent()
    private let mode = RunLoop.current.currentMode?.rawValue ?? RunLoop.Mode.default.rawValue
    #else
    private let queue = DispatchQueue(label: "stubd.in-process.client")
    #endif

    init(_ owner: URLProtocol, client: (any URLProtocolClient)?) {
        self.owner = owner
        self.client = client
    }

    /// True once the load stopped (URLSession cancelled it) or ended.
    var isOver: Bool { state.withLock { over } }

    /// The load was cancelled: no client call from now on.
    func stop() {
        state.withLock {
            over = true
            owner = nil
        }
    }

    func respond(_ response: URLResponse) {
        perform { $0.urlProtocol($1, didReceive: response, cacheStoragePolicy: .notAllowed) }
    }

    func load(_ data: Data) {
        guard !data.isEmpty else { return }
        perform { $0.urlProtocol($1, didLoad: data) }
    }

    func finish() { perform(ending: true) { $0.urlProtocolDidFinishLoading($1) } }

    func fail(_ error: any Error) { perform(ending: true) { $0.urlProtocol($1, didFailWithError: error) } }

    private func perform(ending: Bool = false, _ call: @escaping @Sendable (any URLProtocolClient, URLProtocol) -> Void) {
        guard let target = take(ending: ending) else { return }
        let work: @Sendable () -> Void = { call(target.client, target.owner) }
        #if canImport(Darwin)
        CFRunLoopPerformBlock(runLoop, mode as CFString, work)
        CFRunLoopWakeUp(runLoop)
        #else
        queue.async(execute: work)
        #endif
    }

    /// The client and its protocol for one call, unless the load is over; an ending call ends it.
    private func take(ending: Bool) -> Target? {
        state.lock()
        defer { state.unlock() }
        guard !over, let owner, let client else { return nil }
        if ending {
            over = true
            self.owner = nil
        }
        return Target(client: client, owner: owner)
    }

    /// URLSession's objects, handed to the thread that calls them (they are not marked `Sendable`;
    /// URLSession expects them called from another thread than the one that made them).
    private struct Target: @unchecked Sendable {
        let client: any URLProtocolClient
        let owner: URLProtocol
    }
}
