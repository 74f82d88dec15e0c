import Foundation
import Stubd
import Testing

/// `StubServer.stop()` waits up to half a second for requests in flight; that wait must not hold
/// the thread of the task that awaits it (issue 25 item 7: it slept in a `usleep` loop there, on
/// one of the cooperative pool's few threads, freezing whatever else was to run on it).
@Suite(.serialized) struct LifecycleOffThePoolTests {
    @Test func stoppingWithARequestInFlightLeavesTheCallersThreadFree() async throws {
        let stubs = try TempStubs(["ok.json": "{}"])
        let server = try await StubServer.start(stubs: stubs.url)
        // A request whose body never finishes: in flight until stop's half-second wait runs out.
        let fd = try #require(connectLoopback(port: server.port))
        defer { close(fd) }
        let head = "POST /ok.json HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part"
        _ = head.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        try await Task.sleep(for: .milliseconds(100))

        // Both tasks on one thread: while stop() blocks it, the probe's sleeps cannot end.
        let thread = OneThreadExecutor()
        let probe = await withTaskGroup(of: Double?.self) { group in
            group.addTask(executorPreference: thread) {
                let started = Date()
                for _ in 0..<10 { try? await Task.sleep(for: .milliseconds(20)) }
                return Date().timeIntervalSince(started)
            }
            group.addTask(executorPreference: thread) {
                try? await Task.sleep(for: .milliseconds(50))
                await server.stop()
                return nil
            }
            var probe = 0.0
            for await value in group { if let value { probe = value } }
            return probe
        }
        #expect(probe < 0.45, "ten 20 ms sleeps took \(Int(probe * 1000)) ms while the server stopped on the same thread")
    }
}

/// A task executor that runs one job at a time, as a single thread would.
private final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "stubd-test.one-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
