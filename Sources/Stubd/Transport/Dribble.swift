import CMicroHTTPD
import Foundation

/// The state of one throttled body.
final class Dribble: @unchecked Sendable {
    /// The canned body itself (copy-on-write: nothing is copied per request).
    let bytes: Data
    let rate: Int
    let connection: OpaquePointer
    unowned let router: RequestRouter
    let started = DispatchTime.now().uptimeNanoseconds

    init(bytes: Data, rate: Int, connection: OpaquePointer, router: RequestRouter) {
        self.bytes = bytes
        self.rate = rate
        self.connection = connection
        self.router = router
    }

    static let reader: MHD_ContentReaderCallback = { cls, position, buffer, max in
        let d = Unmanaged<Dribble>.fromOpaque(cls!).takeUnretainedValue()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - d.started) / 1e9
        // A tenth of a second's worth at a time, so the dribble is smooth rather than bursty.
        let due = Swift.min(d.bytes.count, Int(Double(d.rate) * elapsed) + Swift.max(1, d.rate / 10))
        let available = due - Int(position)
        if available <= 0 {
            let wait = UInt64(Double(Int(position) + 1 - Int(Double(d.rate) * elapsed)) / Double(d.rate) * 1e9)
            // Suspended, MHD calls us again after the resume; stopping, the rest goes at once.
            if d.router.suspendForDribble(d.connection, after: Swift.max(1_000_000, wait)) { return 0 }
        }
        let n = Swift.min(max, Swift.max(1, available), d.bytes.count - Int(position))
        d.bytes.withUnsafeBytes { raw in
            buffer!.update(from: raw.baseAddress!.advanced(by: Int(position)).assumingMemoryBound(to: CChar.self), count: n)
        }
        return n
    }

    static let release: MHD_ContentReaderFreeCallback = { cls in
        Unmanaged<Dribble>.fromOpaque(cls!).release()
    }
}
