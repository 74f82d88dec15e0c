import StubdCore
import StubdEngine

/// `stubd record` and `serve --proxy`: the request goes on to the real API (what becomes of the
/// answer is `RecordingPolicy`'s to decide).
struct ForwardingResponder: Responder {
    let engine: StubEngine
    let options: ForwardingOptions
    let forwarder: Forwarder

    func respond(to request: inout IncomingRequest) -> Reply? {
        .forward(engine.session(request.target.session), self)
    }
}
