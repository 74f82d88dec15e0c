#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import Foundation
import HTTPTypes
import StubdProtocol
package import StubdEngine

/// Writes recorded exchanges into a Stubs folder as stubd's own formats: a convention file where
/// the request needs nothing more (`data/2.5/weather.json`), otherwise a route in
/// `stubd.recorded.yml` (a manifest of its own, so the user's `stubd.yml` is never rewritten) with
/// its body under `__files/`. Every written route is loaded back and must answer its request.
package final class StubsRecorder: Sendable {
    package enum Mode: String, Sendable, CaseIterable {
        /// Write only requests the folder does not answer yet (the default): recording again changes nothing.
        case new
        /// Write every request, replacing what answered it before.
        case all
    }

    package enum Outcome: Sendable, Equatable {
        /// Files written (relative to the folder) and the route that now answers, as `serving`: the
        /// route as the folder will load it, which `serve --proxy` puts in force at once. `removed`:
        /// body files the recorder wrote for this route before that no stub names any longer.
        case written(files: [String], route: String, serving: Route, removed: [String] = [])
        /// Nothing written, and why.
        case skipped(String)
        /// Written, but something is wrong (the folder does not load, or does not answer the request).
        case failed(String)

        package static func == (a: Outcome, b: Outcome) -> Bool {
            switch (a, b) {
            case let (.written(f1, r1, _, x1), .written(f2, r2, _, x2)): return f1 == f2 && r1 == r2 && x1 == x2
            case let (.skipped(x), .skipped(y)), let (.failed(x), .failed(y)): return x == y
            default: return false
            }
        }
    }

    package static let manifestName = ManifestFile.recorded

    package let root: URL
    package let rules: RecordingRules
    let mode: Mode
    /// `stubd import har`: `stubd.recorded.yml` is written once, by `writeManifest()`, not after each
    /// route: a 5,000-request HAR rewrote a growing manifest 5,000 times (import 112 s → 96 s, debug build).
    let defersManifest: Bool
    /// The folder as it was when recording started: in `new` mode, what it answered is not written again.
    private let before: StubCatalog?
    private let state = Locked(State())

    private struct State {
        /// Route blocks of `stubd.recorded.yml`, by request key, in file order.
        var blocks: [(key: String, text: String)] = []
        /// This run's answers per request key, for `responses:` sequences.
        var answers: [String: [RecordedAnswer]] = [:]
        /// Convention files this run wrote, by request key.
        var conventionFiles: [String: String] = [:]
        /// Which requests each route of the folder takes, and whose route it is (a recorded route's
        /// name, `file:` and a convention file's path, or where a route of the user's stands): a
        /// written route must not take another's requests, or the folder would no longer load.
        var takenBy: [RouteIdentity: String] = [:]
        var identityOf: [String: RouteIdentity] = [:]
        /// `scenarios:` of `stubd.recorded.yml`: states an import declares (`declare(scenario:states:)`).
        var declaredScenarios: [String: Set<String>] = [:]
        /// The route name given to a request key's block when a tool named its stub (`DeclaredStub.name`).
        var names: [String: String] = [:]
        /// Every route name of the folder and of this run, lower-cased: a name another tool gave is
        /// made unique ignoring case, as its body's file name must be on a Mac.
        var usedNames: Set<String> = []

        /// Records that `owner`'s route takes `identity`'s requests, or throws naming who takes them already.
        mutating func claim(_ identity: RouteIdentity, by owner: String) throws(RecorderError) {
            if let other = takenBy[identity], other != owner {
                throw RecorderError("its route would take the same requests as \(other), so the folder would no longer load")
            }
            release(owner)
            takenBy[identity] = owner
            identityOf[owner] = identity
        }

        mutating func release(_ owner: String) {
            if let identity = identityOf.removeValue(forKey: owner), takenBy[identity] == owner { takenBy[identity] = nil }
        }
    }

    /// Who owns a route of the folder, for `State.claim`.
    static func owner(of route: Route) -> String {
        switch route.source {
        case .convention(let file): return "file:" + file
        // `rec-<hash>`, or the name an import gave it: names are unique in a folder, so a route's name is its owner.
        case let .manifest(file, _) where file == manifestName && route.name != nil: return route.name ?? ""
        default: return route.source.description
        }
    }

    /// Refuses a folder it cannot write, or one that does not load (its problems listed).
    package init(root: URL, rules: RecordingRules, mode: Mode, defersManifest: Bool = false) throws(RecorderError) {
        self.defersManifest = defersManifest
        // A name becomes a `{NAME}` path segment, so a file name: `../x` would write outside the folder.
        for secret in rules.secrets where !SecretNames.isPlainIdentifier(secret.name) {
            throw RecorderError("--secret NAME must be a plain identifier (letters, digits, '_' or '-'), got '\(secret.name.prefix(60))'")
        }
        self.root = root.standardizedFileURL
        self.rules = rules
        self.mode = mode
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if !fm.fileExists(atPath: self.root.path, isDirectory: &isDirectory) {
            do { try fm.createDirectory(at: self.root, withIntermediateDirectories: true) } catch {
                throw RecorderError("cannot create \(self.root.path): \(error.localizedDescription)")
            }
        } else if !isDirectory.boolValue {
            throw RecorderError("\(self.root.path) is a file, not a folder")
        }
        let probe = self.root.appendingPathComponent(".stubd-record-\(UUID().uuidString)")
        guard fm.createFile(atPath: probe.path, contents: Data()) else {
            throw RecorderError("cannot write into \(self.root.path) (check its permissions); nothing was recorded")
        }
        try? fm.removeItem(at: probe)
        do { before = try StubCatalog.load(stubs: self.root) } catch {
            throw RecorderError("\(self.root.path) has problems; fix them before recording into it:\n\(error)")
        }
        let existing = (try? String(contentsOf: self.root.appendingPathComponent(StubsRecorder.manifestName), encoding: .utf8)) ?? ""
        let routes = before?.routes ?? []
        state.withLock { state in
            state.blocks = RecordedManifest.blocks(of: existing)
            state.declaredScenarios = RecordedManifest.declaredScenarios(of: existing)
            state.usedNames = Set(routes.compactMap { $0.name?.lowercased() })
            for route in routes where state.takenBy[RouteIdentity(route)] == nil {
                try? state.claim(RouteIdentity(route), by: StubsRecorder.owner(of: route))
            }
        }
    }

    /// Writes one exchange (or says why not), then checks the written route answers its request.
    /// A write that fails, or whose check fails, is rolled back: the folder stays as it was.
    package func record(_ exchange: RecordedExchange) -> Outcome {
        var exchange = exchange
        if RecordedEventStream.isEventStream(exchange.responseHeaders.firstValue(of: .contentType)) {
            // The events as a client reads them, each after the time the API took: an `.sse` file replays them so.
            exchange.responseBody = RecordedEventStream.sseFile(body: exchange.responseBody, arrivals: exchange.bodyArrivals)
        }
        if let transcript = exchange.webSocket {
            // The conversation as a script; secrets the app sent in its messages are masked too.
            var masker = ExchangeScrubber.secrets(of: exchange, rules: rules)
            for case .text(let text) in transcript.messages.filter(\.fromClient).map(\.payload) {
                if let json = try? JSONParser.parse(Data(text.utf8)) {
                    masker.add(ExchangeSecrets.secretValues(in: json).filter { $0.count >= 3 }.map { ($0, "<redacted>") })
                }
            }
            exchange.responseBody = RecordedWebSocket.wsFile(transcript, masker: masker)
        }
        let request = exchange.requestHead
        if exchange.path.hasPrefix("/__stubd") { return .skipped("admin call") }
        // A WebSocket's 101 is no status `--only` chooses among: the conversation is the answer.
        guard exchange.webSocket != nil || rules.statuses.keeps(exchange.status) else {
            return .skipped("status \(exchange.status.code) is not in --only \(rules.statuses)")
        }
        // The manifest knows these methods only (and `ANY` would mean every method).
        guard ConventionScanner.methods.contains(exchange.method.rawValue) else {
            return .skipped("stubd routes answer \(ConventionScanner.methods.sorted().joined(separator: ", ")), not \(exchange.method)")
        }
        var scrubbed = ExchangeScrubber.scrub(exchange, rules: rules)
        scrubbed.isWebSocket = exchange.webSocket != nil
        // A GraphQL request is recorded by its operation, named after it (`GetWeather`, then
        // `GetWeather-2` for other variables), rather than by its body's bytes.
        if exchange.webSocket == nil, let operation = RecordedOperation(request, scrubbedBody: scrubbed.requestJSON, scrubbedQuery: scrubbed.query) {
            scrubbed.graphQL = operation
            scrubbed.requestJSON = nil
            scrubbed.query.removeAll { RecordedOperation.queryNames.contains($0.name) }
            scrubbed.declaredName = operation.name
        }
        let secretNames = rules.secrets.map(\.name)
        if let problem = RecordedNames.patternProblem(scrubbed.path, secretNames: secretNames) {
            return .skipped("\(problem); add a route for it by hand")
        }
        return write(scrubbed, answering: request, secretNames: secretNames)
    }

    /// Writes a stub another tool declared (`stubd import wiremock`, `stubd import postman`): its
    /// request conditions and answer are taken as they are (no secret scrubbing, every answer
    /// header kept), then written, checked and claimed as a recorded exchange is.
    package func record(_ stub: DeclaredStub) -> Outcome {
        // `ANY` (WireMock's default when a mapping names no method) is a manifest route's word for every method.
        guard stub.method.rawValue == "ANY" || ConventionScanner.methods.contains(stub.method.rawValue) else {
            return .skipped("stubd routes answer \(ConventionScanner.methods.sorted().joined(separator: ", ")), not \(stub.method)")
        }
        let contentType = stub.responseHeaders.firstValue(of: .contentType)
        let mediaType = contentType.map { $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? "" }
        var scrubbed = ScrubbedExchange(method: stub.method, path: stub.path, query: stub.query, headers: stub.headers, requestJSON: stub.requestJSON,
                                        status: stub.status, responseHeaders: stub.responseHeaders, responseBody: stub.responseBody,
                                        mediaType: mediaType, contentType: contentType, delay: stub.delay)
        scrubbed.requestContains = stub.requestContains
        scrubbed.priority = stub.priority
        scrubbed.scenario = stub.scenario
        scrubbed.fault = stub.fault
        scrubbed.declaredName = stub.name
        return write(scrubbed, answering: stub.sample, secretNames: stub.parameterNames)
    }

    /// The writing shared by recorded and declared exchanges: a convention file where the request
    /// needs nothing more than its path, otherwise a block of `stubd.recorded.yml`.
    private func write(_ scrubbed: ScrubbedExchange, answering request: RequestHead, secretNames: [String]) -> Outcome {
        let key = scrubbed.key
        return state.withLock { state -> Outcome in
            let seenThisRun = state.answers[key] != nil
            if mode == .new, !seenThisRun, let before, case .matched(let route, _) = before.match(request) {
                return .skipped("already answered by \(route.source)")
            }
            var answers = state.answers[key] ?? []
            let answer = self.answer(scrubbed, key: key, index: answers.count + 1, name: state.names[key])
            if answers.last == answer { return .skipped("same answer as before") }
            answers.append(answer)
            let saved = state
            state.answers[key] = answers.map { var kept = $0; kept.body = nil; return kept }
            var transaction = RecordingTransaction(root: root)
            do {
                // A block recorded before for this request is replaced in place (mode all), not shadowed by a file.
                if answers.count == 1, !state.blocks.contains(where: { $0.key == key }),
                   let file = conventionFile(scrubbed, secretNames: secretNames) {
                    do {
                        try transaction.write(scrubbed.responseBody, to: file)
                        let route = try checkedConvention(file, answering: request)
                        try state.claim(RouteIdentity(route), by: "file:" + file)
                        state.conventionFiles[key] = file
                        return .written(files: [file], route: "\(scrubbed.method) \(scrubbed.path)", serving: route)
                    } catch {
                        // A name the catalog reads otherwise than meant: the manifest says it literally.
                        transaction.rollback()
                        state = saved
                        state.answers[key] = answers.map { var kept = $0; kept.body = nil; return kept }
                    }
                }
                var files: [String] = []
                var firstBody: Data?
                if let file = state.conventionFiles.removeValue(forKey: key) {
                    // A second, different answer: a sequence, which only the manifest can say. The
                    // first answer's body moves from its convention file to `__files/`.
                    firstBody = FileManager.default.contents(atPath: root.appendingPathComponent(file).path)
                    transaction.remove(file)
                    state.release("file:" + file)
                }
                // A stub another tool named keeps its name (made safe and unique), and its body is named so too.
                if state.names[key] == nil, let wanted = scrubbed.declaredName,
                   let name = uniqueName(wanted, taken: state.usedNames) {
                    state.names[key] = name
                    state.usedNames.insert(name.lowercased())
                    for i in answers.indices {
                        answers[i].file = answers[i].file.map { RecordedNames.namedBodyFile(name, index: i + 1, ext: ($0 as NSString).pathExtension) }
                    }
                    state.answers[key] = answers.map { var kept = $0; kept.body = nil; return kept }
                }
                let routeName = state.names[key] ?? "rec-\(key)"
                for (i, a) in answers.enumerated() where a.file != nil {
                    // Bodies of earlier answers are on disk already, unless the first went into a convention file.
                    let body = i == answers.count - 1 ? a.body : (i == 0 ? firstBody : nil)
                    guard let body else { continue }
                    try transaction.write(body, to: "__files/" + a.file!)
                    files.append("__files/" + a.file!)
                }
                let block = RecordedManifest.routeBlock(scrubbed, key: key, name: routeName, answers: answers)
                var removed: [String] = []
                if let i = state.blocks.firstIndex(where: { $0.key == key }) {
                    // Recording again (`--mode all`) rewrites the block: bodies of answers it no longer
                    // has would be left in `__files/` for nothing (a `[200, 401]` recorded again as
                    // `200` left the 401's body behind).
                    let old = state.blocks[i].text
                    state.blocks[i].text = block
                    removed = orphans(of: old, key: key, keeping: Set(answers.compactMap(\.file)), blocks: state.blocks)
                    for file in removed { transaction.remove(file) }
                } else {
                    state.blocks.append((key, block))
                }
                if !defersManifest { try transaction.write(RecordedManifest.text(state.blocks, scenarios: state.declaredScenarios), to: StubsRecorder.manifestName) }
                files.append(StubsRecorder.manifestName)
                let route = try checkedBlock(block, answering: request)
                // Routes of one request in several scenario states take the same requests on purpose
                // (each steps aside outside its state), which the folder's load accepts.
                if scrubbed.scenario == nil { try state.claim(RouteIdentity(route), by: routeName) }
                return .written(files: files, route: "\(routeName) (\(scrubbed.method) \(scrubbed.path))", serving: route, removed: removed)
            } catch {
                transaction.rollback()
                state = saved
                return .failed("\(error); nothing was written")
            }
        }
    }

    /// With `defersManifest`: writes `stubd.recorded.yml` as the routes recorded so far make it
    /// (nothing when no route went there).
    package func writeManifest() throws(RecorderError) {
        let (blocks, scenarios) = state.withLock { ($0.blocks, $0.declaredScenarios) }
        guard !blocks.isEmpty else { return }
        var transaction = RecordingTransaction(root: root)
        try transaction.write(RecordedManifest.text(blocks, scenarios: scenarios), to: StubsRecorder.manifestName)
    }

    /// Declares states of a scenario in `stubd.recorded.yml`'s `scenarios:`: an import's end state
    /// spelt like one its routes answer in (WireMock's `Unpaid` → `Paid`) is what the mappings
    /// say, not a typo, and the folder's check accepts a declared state.
    package func declare(scenario: String, states: Set<String>) {
        guard !states.isEmpty else { return }
        state.withLock { $0.declaredScenarios[scenario, default: []].formUnion(states) }
    }

    // MARK: Names and orphans

    /// `wanted` as a route name (`RecordedNames.routeName`), unique ignoring case among the folder's
    /// route names and this run's, and free as a body file in `__files/` (a file of the user's there
    /// is never overwritten): `name`, then `name-2`, `name-3`… in the order stubs are written, so
    /// importing the same input into the same folder gives the same names. Nil when nothing of
    /// `wanted` is left once made safe.
    private func uniqueName(_ wanted: String, taken: Set<String>) -> String? {
        guard let base = RecordedNames.routeName(wanted) else { return nil }
        let files = Set(((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("__files").path)) ?? [])
            .map { $0.lowercased() })
        func isFree(_ name: String) -> Bool {
            let lowered = name.lowercased()
            return !taken.contains(lowered) && !files.contains(where: { $0.hasPrefix(lowered + ".") || $0.hasPrefix(lowered + "~") })
        }
        if isFree(base) { return base }
        return (2...).lazy.map { "\(base)-\($0)" }.first(where: isFree)
    }

    /// The body files a block being replaced named that are safe to remove (relative to the folder):
    /// only files the recorder itself names for that block (`…-get-<key>-<n>.json`, or its route
    /// name's `<name>.json`, `<name>~<n>.json`), under `__files/`, that no stub names any longer (the
    /// blocks as they will be written, `stubd.yml` / `stubd.json`: a file a user's route also uses
    /// stays), that are regular files (not a symbolic link) and whose folder is inside the Stubs folder.
    /// A file the user put there, or one an edited block points at, never matches and is never removed.
    private func orphans(of old: String, key: String, keeping kept: Set<String>, blocks: [(key: String, text: String)]) -> [String] {
        let (oldName, oldFiles) = RecordedManifest.routeNameAndFiles(of: old)
        guard !oldFiles.isEmpty else { return [] }
        var texts = blocks.map(\.text)
        for manifest in ConventionScanner.manifestNames where manifest != StubsRecorder.manifestName {
            if let text = try? String(contentsOf: root.appendingPathComponent(manifest), encoding: .utf8) { texts.append(text) }
        }
        let realRoot = root.resolvingSymlinksInPath().path
        var out: [String] = []
        for file in Set(oldFiles).sorted() where !kept.contains(file) && RecordedNames.isRecorderBody(file, key: key, routeName: oldName) {
            // Named anywhere, as written or as a YAML string spells it, it stays.
            let last = (file as NSString).lastPathComponent
            let spelt = String(RecordedManifest.quoted(last).dropFirst().dropLast())
            guard !texts.contains(where: { $0.contains(last) || $0.contains(spelt) }) else { continue }
            let url = root.appendingPathComponent("__files/" + file)
            var info = stat()
            guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                  url.deletingLastPathComponent().resolvingSymlinksInPath().path.hasPrefix(realRoot + "/") else { continue }
            out.append("__files/" + file)
        }
        return out
    }

    // MARK: Checks
    //
    // Each written route is read back alone, as the catalog would read it, and must answer its
    // request; `State.claim` then checks it takes no other route's requests. Loading the whole
    // folder after each write cost more with every route recorded (8 clients x 200 requests: the
    // first 100 in 1.1 s, the last 100 in 15 s; 119 s when each was a manifest route).

    /// The route a convention file makes, which must answer `request` with the method meant and no template.
    private func checkedConvention(_ file: String, answering request: RequestHead) throws(RecorderError) -> Route {
        var scanner = ConventionScanner(reader: StubFileReader(root: root))
        scanner.scan(file: file)
        guard scanner.problems.isEmpty, let route = scanner.routes.first else {
            throw RecorderError("\(file) would not load: \(CatalogLoadError(root: root.path, problems: scanner.problems.items))")
        }
        let method: HTTPRequest.Method = request.method == .head ? .get : request.method
        guard route.method == .only(method), route.responses.allSatisfy({ $0.template == nil }) else {
            throw RecorderError("\(file) would be read as \(route.method) \(route.pattern.text)\(route.responses.first?.template != nil ? " (a template)" : "")")
        }
        try check(route, answers: request)
        return route
    }

    /// The route a `stubd.recorded.yml` block makes (its body files read too), which must answer `request`.
    private func checkedBlock(_ block: String, answering request: RequestHead) throws(RecorderError) -> Route {
        var parser = ManifestParser(file: StubsRecorder.manifestName, reader: StubFileReader(root: root))
        parser.defaultQueryNamesIgnoreCase = before?.queryNamesIgnoreCase ?? false
        parser.checksScenarioStates = false
        let routes = parser.parse("routes:\n" + block).routes
        guard parser.problems.isEmpty, routes.count == 1, let route = routes.first else {
            throw RecorderError("its route would not load: \(CatalogLoadError(root: root.path, problems: parser.problems.items))")
        }
        try check(route, answers: request)
        return route
    }

    private func check(_ route: Route, answers request: RequestHead) throws(RecorderError) {
        let alone = StubCatalog(root: root, routes: [route], quotas: [], clock: .system, fileCount: 1)
        guard case .matched = alone.match(request) else {
            throw RecorderError("the recorded route \(route.method) \(route.pattern.text) would not answer \(request.method) \(request.path)")
        }
    }

    // MARK: Forms

    /// The convention file for a request that needs nothing more than its path, or nil.
    private func conventionFile(_ s: ScrubbedExchange, secretNames: [String]) -> String? {
        if s.isWebSocket {
            // `chat.ws` answers `GET /chat` with the script, as a hand-written one does.
            guard s.method == .get, s.query.allSatisfy({ $0.value == "*" }), s.headers.isEmpty, s.responseHeaders.isEmpty else { return nil }
            return RecordedNames.conventionFile(method: s.method.rawValue, path: s.path, ext: "ws", secretNames: secretNames)
        }
        guard s.status == 200, s.delay == nil, s.query.allSatisfy({ $0.value == "*" }), s.headers.isEmpty, s.requestJSON == nil, s.graphQL == nil,
              s.requestContains == nil, s.priority == nil, s.scenario == nil, s.fault == nil, s.method.rawValue != "ANY",
              s.responseHeaders.allSatisfy({ $0.name == .contentType }),
              let ext = StubsRecorder.fileExtension(for: s.mediaType) else { return nil }
        // The extension must serve the API's `Content-Type`, parameters included: a `.txt` would
        // turn `text/plain` into `text/plain; charset=utf-8`. Otherwise the manifest says it.
        guard let sent = s.contentType,
              ExchangeScrubber.normalizedContentType(ContentType.forExtension(ext)) == ExchangeScrubber.normalizedContentType(sent)
        else { return nil }
        if ConventionScanner.isJSONExtension(ext), (try? JSONParser.parse(s.responseBody)) == nil { return nil }
        return RecordedNames.conventionFile(method: s.method.rawValue, path: s.path, ext: ext, secretNames: secretNames)
    }

    /// The answer as a manifest response, its body (if any) named under `__files/` (written only
    /// if the answer goes into the manifest).
    private func answer(_ s: ScrubbedExchange, key: String, index: Int, name: String?) -> RecordedAnswer {
        var file: String?
        if !s.responseBody.isEmpty {
            var ext = s.isWebSocket ? "ws" : StubsRecorder.fileExtension(for: s.mediaType) ?? "bin"
            // A .json file must parse to load; the route's own Content-Type still says JSON.
            if ext == "json", (try? JSONParser.parse(s.responseBody)) == nil { ext = "bin" }
            file = name.map { RecordedNames.namedBodyFile($0, index: index, ext: ext) }
                ?? RecordedNames.bodyFile(method: s.method.rawValue, path: s.path, key: key, index: index, ext: ext)
        }
        let headers = s.responseHeaders.map { "\(RecordedManifest.quoted($0.name.rawName)): \(RecordedManifest.quoted($0.value))" }
        return RecordedAnswer(status: s.status.code, headers: headers, file: file, body: s.responseBody, bodyDigest: RecordedAnswer.BodyDigest(s.responseBody),
                      delay: s.delay, fault: s.fault, isWebSocket: s.isWebSocket)
    }

    static func fileExtension(for mediaType: String?) -> String? {
        switch mediaType {
        case let m? where ExchangeScrubber.isJSON(m): return "json"
        case "text/html": return "html"
        case "text/event-stream": return "sse"
        case "text/plain": return "txt"
        case "text/csv": return "csv"
        case "application/xml", "text/xml": return "xml"
        case "image/png": return "png"
        case "image/jpeg": return "jpg"
        case "image/gif": return "gif"
        case "application/pdf": return "pdf"
        default: return nil
        }
    }
}
