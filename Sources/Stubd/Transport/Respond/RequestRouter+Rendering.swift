import CMicroHTTPD
import Foundation
import StubdCore

extension RequestRouter {
    /// Renders on a Dispatch thread with the connection suspended, so the requests behind this one
    /// on the worker are answered meanwhile (a 71 MB render held them 1.6 s); then the rendered
    /// answer's hold and delivery apply as to any stub's (`release`, `deliver`).
    func renderOffWorker(_ job: DeferredRender, _ context: RequestContext, _ connection: borrowing Connection,
                         line: RequestLogLine) -> MHD_Result {
        context.logLine = line
        return write(.held(HeldAnswer(context: context, work: .render(job), start: { [self] _ in
            // `release` resumes the connection, now or when the rendered answer's own hold is over.
            DispatchQueue.global().async { [self] in
                release(context, rendered: rendered(job, context))
            }
        }, now: { [self] connection in deliver(rendered(job, context), context, connection) })), connection)
    }

    /// The job rendered and journaled; a stream's journal id goes on to its connection through the log line.
    func rendered(_ job: DeferredRender, _ context: RequestContext) -> Outcome.Answer {
        let outcome = engine.render(job)
        context.logLine?.connection = outcome.connection
        return outcome.answer
    }
}
