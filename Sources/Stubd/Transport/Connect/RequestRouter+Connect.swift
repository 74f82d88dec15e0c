import Foundation
import HTTPTypes
import StubdCore
import StubdEngine

extension RequestRouter {
    /// `CONNECT host:port`, from a client whose HTTPS proxy is stubd: for a host the folder serves,
    /// the connection becomes a TLS tunnel that stubd ends itself (see `TunnelHandOff`); any other
    /// host is refused, naming it. A refusal is queued on the first call, so libmicrohttpd closes the
    /// connection after it, as a proxy does after a failed CONNECT.
    func connect(_ connection: borrowing Connection, authority: String,
                 _ store: RequestSlotStore) -> CallResult {
        let context = RequestContext(.answering)
        store.keep(.tracked(context))
        let authorization = connection.headerString("Proxy-Authorization")
        let session = AbsoluteForm.proxySession(authorization)
        let line = RequestLogLine(method: "CONNECT", path: authority, status: 0, session: session ?? "",
                                  latencyMicroseconds: 0, isAdmin: false)
        guard BlindTunnel.split(authority) != nil else {
            // Whatever the host: no tunnel, to the folder or past it, goes to port 0 or 99999.
            return send(.generated(.problem(400, title: "Bad CONNECT target",
                detail: "CONNECT takes host:port, a host and a port from 1 to 65535 (CONNECT api.example.com:443); got '\(authority.prefix(260))'")),
                context, connection, line: line)
        }
        let served: Bool
        if case .path = hosts.resolve(host: authority, path: "/", hostFolders: engine.catalog.hostFolders) { served = true } else { served = false }
        if !served, passUnknownHosts, !connection.isTLS {
            let via = connection.headerString("Via") ?? ""
            if via.contains(loop.token) {
                return send(.generated(loop.refusal("CONNECT \(authority.prefix(260)) has passed through this stubd already (its Via header carries \(loop.token))")),
                            context, connection, line: line)
            }
            return passTunnel(connection, authority: authority, context: context, line: line)
        }
        guard let tunnels else {
            return send(.generated(.problem(501, title: "No HTTPS here",
                detail: "this server was started without TLS, so it cannot answer CONNECT \(authority.prefix(260)): start it with StubServer.Options.tls set (stubd serve sets it), or point the client at it as a plain-HTTP proxy")),
                context, connection, line: line)
        }
        guard !connection.isTLS else {
            // The tunnel's 200 would go out in plain text inside the TLS stream.
            return send(.generated(.problem(501, title: "CONNECT over TLS",
                detail: "stubd answers CONNECT on its plain port only: give the client an http:// proxy URL (HTTPS_PROXY=http://127.0.0.1:PORT), not https://")),
                context, connection, line: line)
        }
        guard served else { return send(.generated(AbsoluteForm.notServed(authority)), context, connection, line: line) }
        do {
            _ = try tunnels.leaves.certificateAuthority()
        } catch {
            return send(.generated(.problem(502, title: "No certificate authority", detail: error.description)), context, connection, line: line)
        }
        switch tunnels.take(connection, session: session) {
        case .success:
            return send(.handedOff, context, connection, line: line, note: "tunnel")
        case .failure(.full):
            return send(.generated(.problem(503, title: "Too many connections",
                detail: "stubd holds at most \(tunnels.budget.cap) connections (--max-connections); close idle ones or raise the cap")),
                context, connection, line: line)
        case .failure(.socket(let why)):
            return send(.drop(reset: false), context, connection, line: line, note: why)
        }
    }

    /// `--proxy-unknown pass`: the CONNECT's socket goes to a `BlindTunnel` to the real host; the
    /// log line comes when the tunnel ends. libmicrohttpd closes its own descriptor when this returns NO.
    private func passTunnel(_ connection: borrowing Connection, authority: String, context: RequestContext, line: RequestLogLine) -> CallResult {
        let fd = connection.fd
        let client = fd >= 0 ? dup(fd) : -1
        guard client >= 0 else {
            return send(.drop(reset: false), context, connection, line: line, note: "pass-through: the connection has no socket")
        }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        let started = context.started
        let route = BlindTunnel.Route(upstream: upstream, loop: loop, idleSeconds: tunnelIdleSeconds)
        BlindTunnel.open(client: client, authority: authority, route: route) { [log] status, outcome in
            // The tunnel's end is the request's: its line is written then, not by the writer.
            log.write(line, status: status, note: outcome, started: started)
        }
        return write(.handedOff, connection)
    }

    /// `--proxy-unknown pass`: an absolute-form request for a host the folder does not serve goes to
    /// that host over plain HTTP, through the forwarding `serve --proxy` uses (its bounds, no
    /// recording), and counts as a forwarded hit of its session.
    func passThrough(_ head: RequestHead, to authority: String, session: String?, _ context: RequestContext,
                     _ connection: borrowing Connection, line: RequestLogLine) -> CallResult {
        guard let target = URL(string: "http://\(authority)") else {
            return send(.generated(AbsoluteForm.notServed(authority)), context, connection, line: line)
        }
        var options = ForwardingOptions(target: target, scope: .everything)
        options.timeoutSeconds = upstream.passThroughTimeoutSeconds
        var settings = Forwarder.Settings(target: target)
        settings.timeoutSeconds = options.timeoutSeconds
        settings.upstreamProxy = upstream.proxy
        settings.loop = loop
        settings.maxBodyBytes = options.maxBodyBytes
        settings.maxDecodedBytes = options.maxDecodedBytes
        settings.connectionMemoryBytes = options.connectionMemoryBytes
        let responder = ForwardingResponder(engine: engine, options: options, forwarder: Forwarder(settings))
        return forward(head, engine.session(session ?? ""), responder, context, connection, line: line)
    }
}
