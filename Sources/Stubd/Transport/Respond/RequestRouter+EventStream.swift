import Foundation
import StubdCore
import StubdEngine

/// A stub whose answer is server-sent events (`events:`, an `.sse` file): its headers now, then each
/// event when due, as a streamed `Response` (`EventStreamBody`). A client reconnecting with
/// `Last-Event-ID` resumes after that id. The stream is one request: its hit, quota and journal
/// entry were counted when it matched.
extension RequestRouter {
    func eventStream(_ stream: EventStream, _ canned: CannedResponse, _ extra: ExtraHeaders, session: String, route: String?,
                     journal: Int?, _ connection: borrowing Connection) -> (response: Response, note: String?) {
        let lastID = connection.headerString("Last-Event-ID")
        let first = stream.firstIndex(resumingAfter: lastID)
        let state = engine.session(session)
        let body = EventStreamBody(stream: stream, from: first, clock: state.clock, traffic: state.streams, route: route ?? "",
                                   journal: journal.map { (state.streamJournal, $0) }, changed: changeNotice(session))
        let resumed = first > 0 ? ", resumed after id \(lastID ?? "")" : ""
        // Unknown length: chunked, each event flushed as the stream hands it over.
        return (.stream(status: canned.status, headers: canned.headers + extra.list, length: nil, body: body),
                "event stream, \(stream.sendable(from: first)) events\(resumed)")
    }
}
