#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import Stubd
import StubdCore
import StubdEngine
import StubdProtocol

/// Writes the log off the worker threads. A worker hands over a compact record (a request line is
/// the transport's struct plus the time) and goes on; one writer thread builds the batch's lines
/// into one reused byte buffer (`LineFormatter`, `RequestLogBytes`) and writes them to standard
/// output with one `write` a batch.
///
/// When output blocks (a pipe nobody reads, a stalled collector, a paused terminal), the writer
/// blocks and the workers do not: records past `capacity` are dropped and counted, and once output
/// moves again one line says how many. Before, every worker made its own `write(2)`, so an
/// undrained pipe froze the whole server, and formatting a date per line cost 90% of throughput.
final class LogWriter: Sendable {
    enum Record: Sendable {
        case request(RequestLogLine, time: Date)
        case message(Logger.Level, String, Logger.Metadata, time: Date)
        /// A slot of the writer's batch whose record it has taken (moved out, not copied).
        case taken
    }

    private struct Queue {
        var records: [Record] = []
        var dropped = 0
        /// Records taken by the writer and not yet written.
        var writing = 0
    }

    let json: Bool
    /// `--secret` values, shown as `<NAME>` in every line (a key in a path, a recorder's notice).
    let masking: SecretMasker
    private let capacity: Int
    private let queue = Locked(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let output: Int32
    private static let gatherMicroseconds: UInt32 = 500

    init(json: Bool, masking: SecretMasker = SecretMasker(), capacity: Int = 10_000, output: Int32 = STDOUT_FILENO) {
        self.json = json
        self.masking = masking
        self.capacity = capacity
        self.output = output
        let thread = Thread { [self] in run() }
        thread.name = "stubd-log"
        thread.start()
    }

    func enqueue(_ record: Record) {
        let wasEmpty = queue.withLock { q -> Bool? in
            guard q.records.count < capacity else { q.dropped += 1; return nil }
            q.records.append(record)
            return q.records.count == 1
        }
        if wasEmpty == true { wake.signal() }
    }

    /// Waits until everything queued is written, or `seconds` pass (output may be blocked).
    func flush(within seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while queue.withLock({ !$0.records.isEmpty || $0.writing > 0 }), Date() < deadline {
            usleep(2_000)
        }
    }

    private func run() {
        var formatter = LineFormatter(json: json, masking: masking)
        let buffer = LogBuffer()
        // Swapped with the queue's records under the lock: the writer formats one array while the
        // workers fill the other, and neither is copied or made anew once both have grown.
        var batch: [Record] = []
        while true {
            wake.wait()
            // Lets a burst gather before the batch is taken: woken for each first record of an
            // empty queue, the writer kept up with 64 busy connections a line or two at a time, a
            // wake-up and a `write` each (~6 µs of system time a request at -c64, Benchmarks/cpu.py).
            // A line reaches the output at most this much later.
            usleep(Self.gatherMicroseconds)
            while true {
                let dropped = queue.withLock { q -> Int in
                    swap(&q.records, &batch)
                    q.writing = batch.count
                    defer { q.dropped = 0 }
                    return q.dropped
                }
                if batch.isEmpty && dropped == 0 { break }
                buffer.removeAll()
                batch.withUnsafeMutableBufferPointer { records in
                    guard let first = records.baseAddress else { return }
                    for i in records.indices {
                        // Moved out and its slot left `.taken`: the record is neither copied nor destroyed twice.
                        let record = (first + i).move()
                        (first + i).initialize(to: .taken)
                        formatter.append(record, to: buffer)
                    }
                }
                batch.removeAll(keepingCapacity: true)
                if dropped > 0 {
                    formatter.append(.message(.warning, "dropped \(dropped) log lines while output was blocked", [:], time: Date()),
                                     to: buffer)
                }
                writeAll(buffer.bytes)
                queue.withLock { $0.writing = 0 }
            }
        }
    }

    private func writeAll(_ raw: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < raw.count {
            let n = write(output, raw.baseAddress! + offset, raw.count - offset)
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }
}
