import Foundation
import StubdCore
import StubdEngine

extension RequestRouter {
    /// Renders on a Dispatch thread with the connection suspended, so the requests behind this one
    /// on the worker are answered meanwhile (a 71 MB render held them 1.6 s); then the rendered
    /// answer's hold and delivery apply as to any stub's (`release`, `deliver`). Ended before the
    /// render is done (`stop()`), it answers as a stopping server does: rendering it again on the
    /// worker would hold `stop()` as long again and journal it twice.
    func renderOffWorker(_ job: DeferredRender, _ context: RequestContext, _ connection: borrowing Connection,
                         line: RequestLogLine) -> CallResult {
        context.logLine = line
        return write(.held(HeldAnswer(context: context, work: .answer(.generated(Self.stopping)), start: { [self] _ in
            // `release` resumes the connection, now or when the rendered answer's own hold is over.
            DispatchQueue.global().async { [self] in
                let (answer, renderedLine) = rendered(job, line: line)
                release(context, rendered: answer, line: renderedLine)
            }
        }, now: { [self] connection in
            let (answer, renderedLine) = rendered(job, line: line)
            context.logLine = renderedLine
            return deliver(answer, context, connection)
        })), connection)
    }

    /// The job rendered and journaled, and the request's log line with a stream's journal id, which
    /// goes on to its connection through the line.
    private func rendered(_ job: DeferredRender, line: RequestLogLine) -> (Outcome.Answer, RequestLogLine) {
        let outcome = engine.render(job)
        var line = line
        line.connection = outcome.connection
        return (outcome.answer, line)
    }
}
