public import Foundation

extension URL {
    /// `https://api.example.com:8443`, without path: what a `Location` on the target starts with.
    public var origin: String {
        guard let scheme, let host else { return absoluteString }
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }
}
