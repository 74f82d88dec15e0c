import HTTPTypes

extension StubEngine {
    /// A resource route's answer from the session's items, with the quota headers the charge gave.
    func resourceOutcome(_ binding: ResourceBinding, _ parameters: [String: String], _ request: RequestHead,
                         _ session: SessionState, extra: ExtraHeaders, quota: QuotaNote?, route: Route) -> Outcome {
        // A named session reached without the header came through its `/__s/{id}` prefix: a created
        // item's `Location` keeps it, so following it stays in the session.
        let prefix = session.id.isEmpty || request.header(.stubdSession) != nil ? "" : "/__s/" + session.id
        var answer = ResourceAnswers.answer(binding, parameters: parameters, request: request,
                                            store: session.resourceStore(for: binding.resource),
                                            locationPrefix: prefix, random: session.nextRandom)
        // The manifest's `defaults.headers`, as every other route's answers carry them, unless the
        // answer sets the field itself (its Content-Type, a Location, the total).
        for field in route.responses.first?.headers ?? [:] where answer.headers[field.name] == nil {
            answer.headers.append(field)
        }
        if !extra.isEmpty { answer.headers.append(contentsOf: extra.list) }
        return Outcome(answer: .generated(answer), route: route, quota: quota)
    }
}
