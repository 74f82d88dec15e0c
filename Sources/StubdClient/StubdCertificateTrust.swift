#if canImport(Security)
import Foundation
import Security

/// A URLSession delegate that trusts certificates stubd's local CA issued (`stubd ca path`), and
/// only those, for the hosts stubd stands in for: a test's own session trusts the stubs without
/// the CA in the system's store. Certificate-pinning code under test is better served by its own
/// delegate pinning this CA. Not verified here (no Apple machine).
public final class StubdCertificateTrust: NSObject, URLSessionDelegate, @unchecked Sendable {
    private let anchor: SecCertificate

    /// `caPEM`: the PEM `stubd ca export` prints (or the file at `stubd ca path`).
    public init?(caPEM: String) {
        let base64 = caPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: base64), let certificate = SecCertificateCreateWithData(nil, der as CFData) else { return nil }
        anchor = certificate
    }

    /// Accepts a server whose chain ends at stubd's CA; refuses every other server certificate.
    public func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                           completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
              let trust = challenge.protectionSpace.serverTrust else {
            return completionHandler(.performDefaultHandling, nil)
        }
        SecTrustSetAnchorCertificates(trust, [anchor] as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, true)
        if SecTrustEvaluateWithError(trust, nil) {
            completionHandler(.useCredential, URLCredential(trust: trust))
        } else {
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }
}
#endif
