import Foundation
import HTTPTypes
import StubdEngine

/// One of the spec's `components/securitySchemes`: where a request carries the credential it names.
/// stubd checks that the credential is there, never what it is.
package struct ContractSecurityScheme: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// `type: apiKey`: a header, query parameter or cookie of this name.
        case apiKey(name: String, place: ContractParameter.Place)
        /// `type: http`: `Authorization: SCHEME …` (`basic`, `bearer`, `digest`…), lower-cased.
        case http(scheme: String)
        /// `type: oauth2` or `openIdConnect`: an access token, `Authorization: Bearer …`.
        case oauth2
        /// `type: mutualTLS`, or a type stubd does not know: nothing in the request to look for.
        case unverifiable
    }

    /// The scheme's key under `securitySchemes` (`accountSid_authToken`).
    package let name: String
    package let kind: Kind

    /// Where the credential goes, in words: `an Authorization: Basic header`, `the query parameter 'api_key'`.
    package var placeDescription: String {
        switch kind {
        case .apiKey(let key, .header): "the header \(key)"
        case .apiKey(let key, .query): "the query parameter '\(key)'"
        case .apiKey(let key, .cookie): "the cookie '\(key)'"
        case .apiKey(let key, .path): "the path parameter '\(key)'"
        case .http(let scheme): "an Authorization: \(Self.capitalized(scheme)) header"
        case .oauth2: "an Authorization: Bearer header (an OAuth 2 access token)"
        case .unverifiable: "a client certificate"
        }
    }

    /// `header.authorization`, `query.api_key`, `cookie.session`: the violation's location.
    package var location: String {
        switch kind {
        case .apiKey(let key, let place): "\(place.rawValue).\(place == .header ? key.lowercased() : key)"
        case .http, .oauth2: "header.authorization"
        case .unverifiable: "tls"
        }
    }

    /// The `WWW-Authenticate` challenge for an http or OAuth scheme (RFC 9110 §11.6.1, RFC 6750).
    package func challenge(realm: String) -> String? {
        switch kind {
        case .http(let scheme): "\(Self.capitalized(scheme)) realm=\"\(realm)\""
        case .oauth2: "Bearer realm=\"\(realm)\""
        case .apiKey, .unverifiable: nil
        }
    }

    /// Whether `request` carries this scheme's credential (presence only).
    func isPresent(in request: RequestHead) -> Bool {
        func authorization(_ scheme: String) -> Bool {
            guard let value = request.header(.authorization) else { return false }
            let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            return parts.count == 2 && parts[0].lowercased() == scheme && !parts[1].allSatisfy { $0 == " " }
        }
        switch kind {
        case .apiKey(let key, .header): return request.header(key.lowercased()).map { !$0.isEmpty } ?? false
        case .apiKey(let key, .query): return request.query.contains { $0.name == key && !($0.value ?? "").isEmpty }
        case .apiKey(let key, .cookie):
            return request.headers[values: .cookie].contains { line in
                line.split(separator: ";").contains { pair in
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    return parts.count == 2 && parts[0].trimmingCharacters(in: .whitespaces) == key && !parts[1].trimmingCharacters(in: .whitespaces).isEmpty
                }
            }
        case .apiKey(_, .path), .unverifiable: return true
        case .http(let scheme): return authorization(scheme)
        case .oauth2: return authorization("bearer")
        }
    }

    private static func capitalized(_ scheme: String) -> String { scheme.prefix(1).uppercased() + scheme.dropFirst() }
}
