package import HTTPTypes

/// How one request was answered, for the transport to send and the log to show.
package struct Outcome: Sendable {
    package enum Answer: Sendable {
        /// A canned answer, with per-request headers (rate limits) when there are any.
        case canned(CannedResponse, extraHeaders: ExtraHeaders)
        case generated(GeneratedResponse)
    }
    package let answer: Answer
    package let route: Route?
    /// The quota state to log: formatted only when someone reads `quotaNote`.
    package let quota: QuotaNote?
    /// What a template could not fill from this request (the journal shows it). Nil rather than
    /// empty, like `QuotaNote.Notes.more`: an outcome is copied several times, and nil needs no reference count.
    package let notes: [String]?
    /// With a spec: how the request, or the answer a template rendered, breaks it (the journal, the
    /// log line and the `X-Stubd-Contract` header say so). Nil when nothing does.
    package let contractProblems: [String]?
    /// Set when the answer is a template still to render, left to the transport because rendering
    /// can take long (see `DeferredRender`); `answer` is then the template unrendered.
    package let deferred: DeferredRender?
    /// For a WebSocket or an event stream, once journaled: the id its messages are journaled under
    /// (`StreamJournal`), for the transport to hand its connection.
    package var connection: Int?

    /// A WebSocket or an event stream: its messages are journaled too.
    var opensStream: Bool {
        guard case .canned(let canned, _) = answer else { return false }
        return canned.events != nil || canned.webSocket != nil
    }

    /// `wunderground 7/10 minute`, for the request log.
    package var quotaNote: String? { quota?.description }

    // Spelled out (as LoadProblem's is) for its defaults: the memberwise init of `let`s has none.
    package init(answer: Answer, route: Route?, quota: QuotaNote? = nil, notes: [String]? = nil, deferred: DeferredRender? = nil,
         contractProblems: [String]? = nil) {
        self.answer = answer
        self.route = route
        self.quota = quota
        self.notes = notes
        self.deferred = deferred
        self.contractProblems = contractProblems
    }

    /// This outcome with `canned` sent instead of its canned answer (another media type of it).
    func replacingCanned(_ canned: CannedResponse, extraHeaders: ExtraHeaders) -> Outcome {
        Outcome(answer: .canned(canned, extraHeaders: extraHeaders), route: route, quota: quota, notes: notes, deferred: deferred,
                contractProblems: contractProblems)
    }

    /// This outcome with `note` in the journal's notes and, on the answer, in `header` (a template
    /// still to render keeps only the note).
    func noting(_ note: String, header: HTTPField.Name) -> Outcome {
        var answer = self.answer
        switch answer {
        case .canned(let canned, let extra) where deferred == nil:
            var fields = extra.list
            fields[header] = Outcome.headerText(note)
            answer = .canned(canned, extraHeaders: ExtraHeaders(fields))
        case .generated(var generated):
            generated.headers[header] = Outcome.headerText(note)
            answer = .generated(generated)
        default: break
        }
        return Outcome(answer: answer, route: route, quota: quota, notes: (notes ?? []) + [note], deferred: deferred,
                       contractProblems: contractProblems)
    }

    /// `X-Stubd-Contract`: the count and the first problem, on one line a header can hold.
    package static let contractHeader = HTTPField.Name("X-Stubd-Contract")!

    /// This outcome with `problems` said: in `contractProblems`, and as the `X-Stubd-Contract` header
    /// on the answer (or, for a template still to render, carried to its rendering).
    func reporting(_ problems: [String]) -> Outcome {
        guard !problems.isEmpty else { return self }
        if let job = deferred {
            return Outcome(answer: answer, route: route, quota: quota, notes: notes, deferred: job.reporting(problems))
        }
        // The request's problems first, then what was found of the answer before.
        let problems = problems + (contractProblems ?? [])
        let value = Outcome.headerValue(problems)
        let answer: Answer
        switch self.answer {
        case .canned(let canned, let extra):
            var fields = extra.list
            fields[Outcome.contractHeader] = value
            answer = .canned(canned, extraHeaders: ExtraHeaders(fields))
        case .generated(var generated):
            generated.headers[Outcome.contractHeader] = value
            answer = .generated(generated)
        }
        return Outcome(answer: answer, route: route, quota: quota, notes: notes, contractProblems: problems)
    }

    /// `2 problems: query.units: "celsius" is not one of … (and 1 more)`: printable ASCII only (a
    /// header value cannot hold a line break, and not every client reads UTF-8 there), at most 300
    /// characters. A long first problem is cut, never the count of the others: "2 problems" with one
    /// listed read as if the other were lost (issue 45 item 3); the journal lists them all.
    static func headerValue(_ problems: [String]) -> String {
        let head = "\(problems.count) problem\(problems.count == 1 ? "" : "s"): "
        let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
        let first = headerText(problems[0])
        let room = 300 - head.count - more.count
        return head + (first.count > room ? String(first.prefix(room - 3)) + "..." : first) + more
    }

    /// `text` as a header can hold it: printable ASCII, at most 300 characters.
    package static func headerText(_ text: String) -> String {
        let ascii = String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
        return ascii.count > 300 ? String(ascii.prefix(297)) + "..." : ascii
    }

    package var status: HTTPResponse.Status {
        switch answer {
        case .canned(let r, _): return r.status
        case .generated(let g): return g.status
        }
    }
}
