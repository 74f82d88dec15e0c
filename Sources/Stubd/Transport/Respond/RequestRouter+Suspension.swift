import Foundation
import StubdCore
import StubdEngine
import StubdProtocol
import HTTPTypes
import Synchronization

extension RequestRouter {
    /// The answer of a request whose hold `stop()` ended before its answer was made (a forward
    /// waiting for the real API, a render off the worker).
    static var stopping: GeneratedResponse { .problem(503, title: "Stopping", detail: "stubd is stopping") }

    /// Goes on with a request whose connection was resumed: what it was waiting for is now due.
    func finish(_ work: PendingWork, _ context: RequestContext, _ connection: borrowing Connection) -> CallResult {
        switch work {
        case let .answer(answer, line):
            if let line { context.logLine = line }
            return deliver(answer, context, connection)
        case let .adminHold(hold, registration):
            if let registration { _ = hold.cancel(registration) }
            return finishHold(hold, context, connection)
        case .response(let response):
            return write(response, connection)
        }
    }
}
