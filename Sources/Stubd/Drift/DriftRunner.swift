package import Foundation
import HTTPTypes
package import StubdCore
package import StubdEngine

/// `stubd drift`: sends each request the folder's routes stand for to the real API twice, through
/// the same libcurl client `stubd record` forwards with (`Forwarder`), and compares the answers
/// with the folder's (`DriftComparison`). Bounded three ways: a pace (`rate`), a total time
/// (`timeoutSeconds`), and the first 429 from the API, after which nothing more is sent. It only
/// reads the folder; `--write` records the live answers into another one.
package struct DriftRunner: Sendable {
    package struct Settings: Sendable {
        package var target: URL
        package var secrets: [NamedSecret] = []
        /// `--all`: the user's own manifest routes too, where they stand for one concrete request.
        package var includeHandWritten = false
        /// `--unsafe`: POST, PUT, PATCH and DELETE routes too.
        package var unsafeMethods = false
        /// Requests per second, at most.
        package var rate: Double = 5
        /// For the whole run.
        package var timeoutSeconds: Double = 120
        package var maxBodyBytes: Int = 10 << 20
        package var caFile: String?
        package var insecure = false
        /// `--spec` (repeatable): each live answer is also held against its operation's response in
        /// the spec that declares the operation.
        package var contracts: ContractSet?

        package init(target: URL) { self.target = target }
    }

    let settings: Settings
    /// `--write DIR`: records every first live answer there, for review.
    let recorder: StubsRecorder?

    package init(_ settings: Settings, writingInto recorder: StubsRecorder? = nil) {
        self.settings = settings
        self.recorder = recorder
    }

    /// Why a run ends before its last route.
    private struct Stop: Error {
        let reason: String
    }

    /// Spaces requests `1/rate` seconds apart and keeps the total deadline.
    private final class Pace: @unchecked Sendable {
        let interval: UInt64
        let deadline: UInt64
        var next: UInt64
        init(rate: Double, timeoutSeconds: Double) {
            let now = DispatchTime.now().uptimeNanoseconds
            interval = UInt64(1e9 / rate)
            deadline = now + UInt64(timeoutSeconds * 1e9)
            next = now
        }
        /// Seconds left once it is this request's turn, or nil when the deadline comes first.
        func turn() async -> Double? {
            let now = DispatchTime.now().uptimeNanoseconds
            if next > now {
                guard next < deadline else { return nil }
                try? await Task.sleep(nanoseconds: next - now)
            }
            let start = max(now, next)
            next = start + interval
            let left = deadline > start ? deadline - start : 0
            return left == 0 ? nil : Double(left) / 1e9
        }
    }

    package func run(catalog: StubCatalog) async -> DriftReport {
        var report = DriftReport(target: settings.target.absoluteString, folder: catalog.root.path)
        report.spec = settings.contracts?.names
        let masker = SecretMasker(settings.secrets.map { ($0.value, "<\($0.name)>") })
        let pace = Pace(rate: settings.rate, timeoutSeconds: settings.timeoutSeconds)
        var written = Set<String>()
        for route in catalog.routes {
            let plan = DriftRequest.plan(for: route, secrets: settings.secrets, includeHandWritten: settings.includeHandWritten,
                                           unsafeMethods: settings.unsafeMethods)
            let replay: DriftRequest
            switch plan {
            case .handWritten:
                report.handWrittenLeftOut += 1
                continue
            case .skip(let why):
                report.routes.append(.init(request: route.signature, route: route.description, source: route.source.description,
                                           outcome: .skipped, problem: why))
                continue
            case .replay(let r): replay = r
            }
            let request = replay.request
            var shown = replay.shown(secrets: masker)
            func result(_ outcome: DriftReport.RouteResult.Outcome, _ findings: [DriftFinding] = [], _ problem: String? = nil) -> DriftReport.RouteResult {
                .init(request: shown, route: replay.route, source: replay.source, outcome: outcome, findings: findings, problem: problem)
            }
            if report.stopped != nil {
                report.routes.append(result(.notChecked))
                continue
            }
            do {
                var path = request.paths[0]
                let live: DriftAnswer, again: DriftAnswer
                if let script = replay.webSocket {
                    live = try await converse(script, request, path: path, pace: pace, shown: shown)
                    again = try await converse(script, request, path: path, pace: pace, shown: shown)
                } else {
                    var first = try await send(request, path: path, pace: pace, shown: shown, masker: masker)
                    // A convention file's name does not say whether its extension was in the URL: the other spelling on a 404.
                    if first.status == 404, replay.recorded.status != 404, request.paths.count > 1 {
                        let other = try await send(request, path: request.paths[1], pace: pace, shown: replay.shown(1, secrets: masker), masker: masker)
                        if other.status != 404 { (path, first, shown) = (request.paths[1], other, replay.shown(1, secrets: masker)) }
                    }
                    live = first
                    again = try await send(request, path: path, pace: pace, shown: shown, masker: masker)
                }
                let origin = settings.target.origin
                let findings: [DriftFinding]
                do {
                    findings = try DriftComparison.compare(recorded: replay.recorded,
                                                           live: live.asRecorded(secrets: masker, targetOrigin: origin),
                                                           again: again.asRecorded(secrets: masker, targetOrigin: origin),
                                                           ignore: catalog.driftIgnore, deadline: pace.deadline)
                } catch {
                    throw Stop(reason: "--timeout (\(format(settings.timeoutSeconds)) s for the whole run) passed while comparing the answers to \(shown)")
                }
                let (broken, unchecked) = contractFindings(live, method: request.method, path: path, masker: masker)
                report.routes.append(result(.compared, findings + broken, unchecked))
                if let recorder {
                    let exchange = RecordedExchange(method: request.method, path: path, query: request.query, requestHeaders: request.headers,
                                                    requestBody: request.body, status: live.status, responseHeaders: live.headers,
                                                    responseBody: live.body)
                    switch recorder.record(exchange) {
                    case .written(let files, _, _, _): written.formUnion(files)
                    case .skipped(let why), .failed(let why):
                        report.routes[report.routes.count - 1].problem = "not written to --write: \(why)"
                    }
                }
            } catch let failure as RouteFailure {
                report.routes.append(result(.failed, [], failure.reason))
            } catch let stop as Stop {
                report.stopped = stop.reason
                report.routes.append(result(.notChecked))
            } catch {
                report.routes.append(result(.failed, [], "\(error)"))
            }
        }
        if let stopped = report.stopped {
            let left = report.routes.filter { $0.outcome == .notChecked }.count
            report.stopped = stopped + "; \(left) route(s) not checked"
        }
        report.written = written.sorted()
        return report
    }

    /// Where the live answer breaks the spec (secrets masked in what is shown), or why it was not held
    /// against it. Only the first live answer: the second is there to tell volatile values apart.
    private func contractFindings(_ live: DriftAnswer, method: HTTPRequest.Method, path: String, masker: SecretMasker) -> ([DriftFinding], String?) {
        guard let contracts = settings.contracts else { return ([], nil) }
        guard let contract = contracts.contract(method: method, requestPath: path),
              let (operation, _) = contract.operation(method: method, requestPath: path) else {
            return ([], "matches no operation in \(contracts.namesEither), so its live answer was not held against it")
        }
        let names = Set(live.headers.map { $0.name.canonicalName })
        let violations = AnswerConformance.violations(status: live.status, headerNames: names, contentType: live.header(.contentType),
                                                      body: live.body, of: operation, in: contract)
        let findings = violations.map { violation in
            DriftFinding(.contract, violation.pointer.map { $0.isEmpty ? "" : $0 } ?? "answer",
                         masker.mask("\(violation.message) (\(violation.hint))"))
        }
        return (findings, nil)
    }

    /// This route has no answer to compare; the run goes on.
    private struct RouteFailure: Error {
        let reason: String
    }

    /// One request to the real API, when the pace allows. Throws `Stop` on a 429, an unreachable
    /// target or the deadline; `RouteFailure` when only this answer cannot be compared.
    private func send(_ request: DriftRequest.ConcreteRequest, path: String, pace: Pace, shown: String, masker: SecretMasker) async throws -> DriftAnswer {
        guard let left = await pace.turn() else {
            throw Stop(reason: "--timeout (\(format(settings.timeoutSeconds)) s for the whole run) passed before \(shown)")
        }
        var forwarding = Forwarder.Settings(target: settings.target)
        forwarding.timeoutSeconds = left
        forwarding.maxBodyBytes = settings.maxBodyBytes
        forwarding.maxDecodedBytes = max(settings.maxBodyBytes, ForwardingOptions.defaultMaxDecodedBytes)
        // No libmicrohttpd connection holds these headers: only libcurl's own limits apply.
        forwarding.connectionMemoryBytes = Int.max / 2
        forwarding.caFile = settings.caFile
        forwarding.insecure = settings.insecure
        // Not a server: nothing of its own to loop back to, and a proxy the shell names is how it reaches the API.
        forwarding.environmentProxies = true
        let forwarder = Forwarder(forwarding)
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Forwarder.Result, Never>) in
            forwarder.forward(method: request.method, path: path, query: request.query, headers: request.headers, body: request.body,
                              onStream: { _, _, stream in stream.abandon() }, // too large to compare: stop downloading it
                              done: { continuation.resume(returning: $0) })
        }
        switch answer {
        case let .answered(status, headers, body, _):
            if status == 429 {
                let retry = headers[.retryAfter].map { " (Retry-After: \($0))" } ?? ""
                throw Stop(reason: "the real API answered 429 Too Many Requests to \(shown)\(retry), so nothing more was sent; "
                           + "run again later, or with a lower --rate")
            }
            return DriftAnswer(status: HTTPResponse.Status(code: status), headers: headers, body: body)
        case let .relayed(status, headers, body, _):
            // Not asked for (`relaysEventStreams` is off): held whole all the same.
            return DriftAnswer(status: HTTPResponse.Status(code: status), headers: headers, body: body)
        case .streamed(let status, let bytes, _):
            throw RouteFailure(reason: "the API answered \(status) with more than \(settings.maxBodyBytes) bytes (\(bytes) taken); not compared")
        case let .refused(title, detail):
            throw RouteFailure(reason: masker.mask("\(title): \(detail)"))
        case .unreachable(let why):
            throw Stop(reason: "cannot reach \(settings.target.absoluteString): \(masker.mask(why))")
        case .timedOut:
            throw Stop(reason: "--timeout (\(format(settings.timeoutSeconds)) s for the whole run) passed while waiting for \(shown)")
        case .loop(let why):
            throw Stop(reason: "cannot compare with \(settings.target.absoluteString): \(why)")
        }
    }

    /// One WebSocket conversation with the real API, when the pace allows: the app's messages of
    /// `script` sent, what the API sent back as JSON (`DriftWebSocket`); a handshake it refused is
    /// its answer (compared by status). Throws as `send` does.
    private func converse(_ script: WebSocketScript, _ request: DriftRequest.ConcreteRequest, path: String, pace: Pace,
                          shown: String) async throws -> DriftAnswer {
        guard let left = await pace.turn() else {
            throw Stop(reason: "--timeout (\(format(settings.timeoutSeconds)) s for the whole run) passed before \(shown)")
        }
        guard let url = Forwarder(Forwarder.Settings(target: settings.target)).url(path: path, query: request.query) else {
            throw RouteFailure(reason: "cannot build a URL for \(path)")
        }
        var headers = request.headers
        headers[HTTPField.Name("Sec-WebSocket-Key")!] = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        headers[HTTPField.Name("Sec-WebSocket-Version")!] = "13"
        if !script.protocols.isEmpty { headers[HTTPField.Name("Sec-WebSocket-Protocol")!] = script.protocols.joined(separator: ", ") }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(left * 1e9)
        let handshake = headers
        let target = settings.target.absoluteString
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<DriftAnswer, any Error>, Never>) in
            // Blocking sockets on a thread of its own, as a forward's transfer.
            NamedThread.start("stubd-drift-ws") {
                switch UpstreamWebSocket.open(url: url, headers: handshake, loop: ForwardingLoop(), timeoutSeconds: left) {
                case let .upgraded(fd, _, extra):
                    let conversation = DriftWebSocketConversation.play(script, fd: fd, extra: extra, deadline: deadline)
                    close(fd)
                    let body = DriftWebSocket.json(open: conversation.open, replies: conversation.replies, close: conversation.close)
                    continuation.resume(returning: .success(DriftAnswer(status: .switchingProtocols, headers: [.contentType: "application/json"],
                                                                        body: Data(body.serialized.utf8))))
                case let .answered(status, headers, body):
                    if status == 429 {
                        continuation.resume(returning: .failure(Stop(reason: "the real API answered 429 Too Many Requests to \(shown), so nothing more was sent; run again later, or with a lower --rate")))
                    } else {
                        continuation.resume(returning: .success(DriftAnswer(status: HTTPResponse.Status(code: status), headers: headers, body: body)))
                    }
                case .unreachable(let why):
                    continuation.resume(returning: .failure(Stop(reason: "cannot open a WebSocket on \(target): \(why)")))
                case .badHandshake(let why):
                    continuation.resume(returning: .failure(Stop(reason: "the WebSocket handshake with \(target) is not valid: \(why)")))
                case .loop(let why):
                    continuation.resume(returning: .failure(Stop(reason: "cannot compare with \(target): \(why)")))
                }
            }
        }
        return try outcome.get()
    }

    private func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
