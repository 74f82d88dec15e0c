import Foundation
package import HTTPTypes

extension StubEngine {
    /// `X-Stubd-Accept`: a request's `Accept` that takes none of the answer's media types, in report mode.
    package static let acceptHeader = HTTPField.Name("X-Stubd-Accept")!

    /// The stub's answer in the media type the request's `Accept` prefers (q-values, wildcards and
    /// the more specific range deciding, RFC 9110 §12.5.1), among the stub's own bodies (`content:`)
    /// and, with a spec, the examples its response declares for this status in other types (an XML
    /// example sent as written, one given as JSON written as XML: `SpecAnswers.declaredBodies`). The stub's first body is the default, for no `Accept` and for ties.
    ///
    /// When the request takes none of them: 406 naming what there is in strict mode
    /// (`--validate requests=strict`); otherwise the default, with a note and `X-Stubd-Accept`.
    func negotiated(_ outcome: Outcome, _ request: RequestHead) -> Outcome {
        // The common case, without a spec: one body, and nothing to choose.
        guard case .canned(let canned, let extra) = outcome.answer, hasSpecs || !canned.alternatives.isEmpty,
              canned.template == nil, canned.quotaStatus == nil, canned.fault == nil, let route = outcome.route,
              let type = canned.headers[.contentType], let value = request.header(.accept) else { return outcome }
        let accept = AcceptHeader(value)
        // Named outright at full quality: nothing can be preferred to the default.
        if accept.takesAnything || accept.quality(of: type).map({ $0.quality == 1 && $0.specificity == 2 }) == true { return outcome }
        var offers = [canned] + canned.alternatives
        if let (specName, bodies) = specs?.declaredBodies(for: route, status: canned.status,
                                                         besides: offers.map { $0.headers[.contentType] ?? "" }) {
            for (type, body) in bodies {
                var headers = canned.headers
                headers[.contentType] = type
                // Another body: its own validators, not the stub's.
                headers[.eTag] = nil
                headers[.lastModified] = nil
                offers.append(CannedResponse(status: canned.status, headers: headers, body: body, delay: canned.delay,
                                             bytesPerSecond: canned.bytesPerSecond, bodySource: specName))
            }
        }
        let types = offers.map { $0.headers[.contentType] ?? "application/octet-stream" }
        if let best = accept.best(of: types) {
            if best == 0 { return outcome }
            return outcome.replacingCanned(offers[best], extraHeaders: extra)
        }
        let available = types.map { String($0.prefix { $0 != ";" }) }.joined(separator: ", ")
        let detail = "\(request.method) \(request.normalizedPath) answers \(available); the request's Accept: \(request.header(.accept) ?? "") takes none of them"
        if contractRequests == "strict" {
            return Outcome(answer: .generated(.problem(406, title: "Not acceptable", detail: detail,
                                                       extra: ["available": .array(types.map { .string($0) })])),
                           route: route, quota: outcome.quota, contractProblems: outcome.contractProblems)
        }
        return outcome.noting(detail + "; served " + String(type.prefix { $0 != ";" }), header: Self.acceptHeader)
    }
}
