import Foundation
import Stubd
import StubdTestSupport
import Testing

/// `StubServer.stop()` waits up to half a second for requests in flight; that wait must not hold
/// the thread of the task that awaits it (issue 25 item 7: it slept in a `usleep` loop there, on
/// one of the cooperative pool's few threads, freezing whatever else was to run on it). It runs in
/// the serial suite (scripts/test): tests in parallel that block the pool delay every sleep.
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

        // Both tasks on one thread: while stop() blocks it, the probe's 20 ms sleeps cannot end.
        let thread = OneThreadExecutor()
        let ticks = Ticks()
        let stopping = await withTaskGroup(of: ClosedRange<Date>?.self) { group in
            group.addTask(executorPreference: thread) {
                while !ticks.finished {
                    try? await Task.sleep(for: .milliseconds(20))
                    ticks.record(Date())
                }
                return nil
            }
            group.addTask(executorPreference: thread) {
                try? await Task.sleep(for: .milliseconds(50))
                let started = Date()
                await server.stop()
                let ended = Date()
                ticks.finish()
                return started...ended
            }
            var stopping: ClosedRange<Date>?
            for await value in group { if let value { stopping = value } }
            return stopping
        }
        let window = try #require(stopping)
        // The wait for the unfinished request takes about half a second; the probe must tick inside it.
        let during = ticks.all.filter { $0 > window.lowerBound.addingTimeInterval(0.1) && $0 < window.upperBound }
        #expect(window.upperBound.timeIntervalSince(window.lowerBound) > 0.3, "stop() did not wait for the request in flight")
        #expect(!during.isEmpty, "no task ran on the caller's thread during the \(Int(window.upperBound.timeIntervalSince(window.lowerBound) * 1000)) ms stop")
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

/// When the probe's sleeps ended.
private final class Ticks: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Date] = []
    private var done = false

    var finished: Bool { lock.withLock { done } }
    var all: [Date] { lock.withLock { times } }
    func record(_ time: Date) { lock.withLock { times.append(time) } }
    func finish() { lock.withLock { done = true } }
}
