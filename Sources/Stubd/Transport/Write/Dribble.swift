import Foundation

/// A `throttle`d body: sent at `rate` bytes per second. It gives what the budget allows, then
/// pauses the connection until more is due, so no worker thread waits.
final class Dribble: ResponseStream, @unchecked Sendable {
    /// The canned body itself (copy-on-write: nothing is copied per request).
    let bytes: Data
    let rate: Int
    let started = DispatchTime.now().uptimeNanoseconds

    init(bytes: Data, rate: Int) {
        self.bytes = bytes
        self.rate = rate
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at position: UInt64, pause: StreamPause) -> StreamRead {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        // A tenth of a second's worth at a time, so the dribble is smooth rather than bursty.
        let due = min(bytes.count, Int(Double(rate) * elapsed) + max(1, rate / 10))
        let available = due - Int(position)
        if available <= 0 {
            let wait = UInt64(Double(Int(position) + 1 - Int(Double(rate) * elapsed)) / Double(rate) * 1e9)
            // Paused, we are read again after the resume; stopping, the rest goes at once.
            if pause.suspend(forNanoseconds: max(1_000_000, wait)) { return .paused }
        }
        let n = min(buffer.count, max(1, available), bytes.count - Int(position))
        bytes.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress!.advanced(by: Int(position)), byteCount: n)
        }
        return .bytes(n)
    }
}
