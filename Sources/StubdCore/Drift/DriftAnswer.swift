package import Foundation
package import HTTPTypes
package import StubdEngine

/// An answer as `stubd drift` compares it: what the folder serves, or what the real API sent
/// (body decoded, secrets masked as the recording masked them).
package struct DriftAnswer: Sendable {
    package var status: HTTPResponse.Status
    package var headers: HTTPFields
    package var body: Data

    package init(status: HTTPResponse.Status, headers: HTTPFields, body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package func header(_ name: HTTPField.Name) -> String? { headers.firstValue(of: name) }

    /// A live answer made comparable with a recording: `--secret` values become `<NAME>` wherever
    /// the API echoes them, a `Location` on the target loses its origin and a cookie its value, as
    /// `stubd record` wrote them; only the headers a recording keeps are kept.
    package func asRecorded(secrets: SecretMasker, targetOrigin: String) -> DriftAnswer {
        var kept = HTTPFields()
        for h in headers {
            let lowered = h.name.canonicalName
            guard RecordingRules.keepsResponseHeader(lowered) else { continue }
            var value = secrets.mask(h.value)
            if lowered == "location", !targetOrigin.isEmpty, value.hasPrefix(targetOrigin) {
                value = String(value.dropFirst(targetOrigin.count))
                if value.isEmpty { value = "/" }
            }
            if lowered == "set-cookie" {
                guard let cookie = ExchangeSecrets.redactedCookie(value) else { continue }
                value = cookie
            }
            kept.append(HTTPField(name: h.name, value: value))
        }
        return DriftAnswer(status: status, headers: kept, body: secrets.mask(body))
    }
}
