import Foundation
import HTTPTypes

/// A request's conditional and range headers, read in one pass over its fields, and what they ask
/// of a canned answer that has validators (`CannedResponse.validators`): the whole answer, a `304`,
/// one byte range (`206`) or a `416`. Nil for a request with none of them, the usual case.
package struct ConditionalRequest {
    private var ifNoneMatch: Substring?
    private var ifModifiedSince: Substring?
    private var range: Substring?
    private var ifRange: Substring?

    enum Verdict: Equatable {
        case full
        case notModified
        case partial(lower: Int, upper: Int)
        case unsatisfiable
    }

    init?(_ headers: HTTPFields) {
        for field in headers {
            // The first byte rules out nearly every field before a full comparison.
            guard let first = field.name.canonicalName.utf8.first, first == UInt8(ascii: "i") || first == UInt8(ascii: "r") else { continue }
            switch field.name {
            case .ifNoneMatch: ifNoneMatch = ifNoneMatch.map { $0 + "," + field.value } ?? Substring(field.value)
            case .ifModifiedSince: ifModifiedSince = ifModifiedSince ?? Substring(field.value)
            case .range: range = range ?? Substring(field.value)
            case .ifRange: ifRange = ifRange ?? Substring(field.value)
            default: continue
            }
        }
        if ifNoneMatch == nil, ifModifiedSince == nil, range == nil { return nil }
    }

    /// RFC 9110 §13.2.2's order: `If-None-Match` decides when sent, else `If-Modified-Since`; then a
    /// `Range` (GET only), honoured only while `If-Range` still names this content.
    func verdict(for validators: CannedResponse.Validators, bodyLength: Int, method: HTTPRequest.Method) -> Verdict {
        guard method == .get || method == .head else { return .full }
        if let ifNoneMatch {
            if EntityTag.listMatches(ifNoneMatch, validators.entityTag) { return .notModified }
        } else if let ifModifiedSince, let since = HTTPDate.parse(ifModifiedSince), validators.lastModified <= since {
            return .notModified
        }
        guard method == .get, let range else { return .full }
        if let ifRange {
            let stillCurrent = ifRange.hasPrefix("\"") || ifRange.hasPrefix("W/")
                ? EntityTag.strongMatch(ifRange, validators.entityTag)
                : HTTPDate.parse(ifRange) == validators.lastModified
            guard stillCurrent else { return .full }
        }
        switch ByteRange.parse(range, length: bodyLength) {
        case .bytes(let lower, let upper): return .partial(lower: lower, upper: upper)
        case .unsatisfiable: return .unsatisfiable
        case .ignored: return .full
        }
    }
}
