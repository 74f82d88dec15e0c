import Foundation
import StubdProtocol

extension Delay {
    /// A sample, in nanoseconds.
    package func sample() -> UInt64 {
        switch self {
        case .fixed(let d): return d.nanoseconds
        case .uniform(let low, let high):
            let (a, b) = (low.nanoseconds, high.nanoseconds)
            return a >= b ? a : UInt64.random(in: a...b)
        case .lognormal(let median, let sigma):
            // Box-Muller: a standard normal sample, then exp(mu + sigma * z), with mu = ln(median).
            let u1 = Double.random(in: Double.ulpOfOne..<1), u2 = Double.random(in: 0..<1)
            let z = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
            let value = Double(median.nanoseconds) * exp(sigma * z)
            return UInt64(min(value, 3.6e12))
        }
    }
}
