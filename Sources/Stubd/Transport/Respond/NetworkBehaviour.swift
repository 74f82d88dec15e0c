import StubdCore
import StubdEngine
import StubdProtocol
import HTTPTypes

/// What a stub's network behaviours (`delay`, `hang`, `fault`, `throttle`) do to its answer,
/// decided here for every path that sends one (a plain stub, a template rendered off the worker):
/// first how long the connection is held, then how the answer goes out.
enum NetworkBehaviour {
    /// Before the answer: the connection is suspended.
    enum Hold: Equatable {
        /// `hang`: never answered; let go after `hangLimitNanoseconds` (a suspended connection never
        /// times out by itself) or when the client leaves.
        case hang
        /// `delay`: answered after this long.
        case delay(nanoseconds: UInt64)

        /// How long the connection is held.
        var nanoseconds: UInt64 {
            switch self {
            case .hang: return NetworkBehaviour.hangLimitNanoseconds
            case .delay(let nanoseconds): return nanoseconds
            }
        }
    }

    /// How the answer goes out once any hold is over.
    enum Delivery: Equatable {
        case whole
        /// `fault`: the answer is broken on purpose (it takes precedence over a throttle).
        case fault(Fault)
        /// `throttle`: the body at this many bytes per second.
        case throttled(bytesPerSecond: Int)
    }

    static let hangLimitNanoseconds: UInt64 = 300_000_000_000

    static func hold(for canned: CannedResponse) -> Hold? {
        if canned.fault == .hang { return .hang }
        if let delay = canned.delay { return .delay(nanoseconds: delay.sample()) }
        return nil
    }

    static func delivery(for canned: CannedResponse) -> Delivery {
        if let fault = canned.fault { return .fault(fault) }
        if let rate = canned.bytesPerSecond { return .throttled(bytesPerSecond: rate) }
        return .whole
    }

    /// The response a canned answer goes out as once any hold is over (whole, broken by its fault,
    /// or throttled), and what its log line says of that.
    static func response(for canned: CannedResponse, _ extra: ExtraHeaders) -> (response: Response, note: String?) {
        switch delivery(for: canned) {
        case .whole:
            return (.canned(canned, extra), nil)
        case .throttled(let rate):
            return (.stream(status: canned.status, headers: canned.headers + extra.list, length: UInt64(canned.body.count),
                            body: Dribble(bytes: canned.body, rate: rate)), "throttled \(rate) B/s")
        case .fault(let fault):
            let note = "fault \(fault.rawValue)"
            switch fault {
            case .connectionReset: return (.drop(reset: true), note)
            case .emptyResponse, .hang: return (.drop(reset: false), note)
            case .truncatedBody: return (TruncatedBody.response(for: canned, extraHeaders: extra.list), note)
            // The catalog cuts the body short and drops this fault (ManifestParser+Response), so it
            // never reaches here; were it to, the body goes out as it is.
            case .malformedJSON: return (.canned(canned, extra), note)
            }
        }
    }
}
