/// One link of the chain a request goes through (`ResponderChain`): it answers the request, or
/// passes it on with nil. What it answers is a `Reply`, a value: queueing it, holding the
/// connection for a delay and writing the log line are the router's, each in one place.
protocol Responder {
    func respond(to request: inout IncomingRequest) -> Reply?
}
