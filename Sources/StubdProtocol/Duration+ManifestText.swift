import Foundation

// A duration as the manifest writes it, shared by the manifest parser (StubdCore) and the runtime
// stub document, so the client writes what the server reads.
extension Duration {
    /// `200ms`, `1.5s`, `2m`, `1h`; a bare number is milliseconds. Nil for anything else, a negative
    /// value, or a day or more.
    package init?(manifestText text: String) {
        let units: [(String, Double)] = [("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            guard let value = Double(number), value >= 0, value.isFinite, value * scale < 86_400 else { return nil }
            self = .nanoseconds(Int64((value * scale * 1e9).rounded()))
            return
        }
        guard let ms = Double(text), ms >= 0, ms < 86_400_000 else { return nil }
        self = .nanoseconds(Int64(ms * 1e6))
    }

    package var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// The manifest's spelling: `2s`, `200ms`, `0.5ms`.
    package var shortDescription: String {
        let ns = nanoseconds
        if ns % 1_000_000_000 == 0 { return "\(ns / 1_000_000_000)s" }
        if ns % 1_000_000 == 0 { return "\(ns / 1_000_000)ms" }
        return "\(Double(ns) / 1e6)ms"
    }
}
