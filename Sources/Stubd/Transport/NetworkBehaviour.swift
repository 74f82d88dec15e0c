import StubdCore
import StubdProtocol

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
}
