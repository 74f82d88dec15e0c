package import Foundation
package import HTTPTypes

/// What a rejected request gets.
package enum ExceededAnswer: Sendable {
    case profile(QuotaProfile)
    case custom(status: HTTPResponse.Status, headers: HTTPFields, body: Data, contentType: String)
}
