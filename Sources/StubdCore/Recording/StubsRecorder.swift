import Foundation

/// Writes recorded exchanges into a Stubs folder as stubd's own formats: a convention file where
/// the request needs nothing more (`data/2.5/weather.json`), otherwise a route in
/// `stubd.recorded.yml` (a manifest of its own, so the user's `stubd.yml` is never rewritten) with
/// its body under `__files/`. Every written route is loaded back and must answer its request.
public final class StubsRecorder: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Write only requests the folder does not answer yet (the default): recording again changes nothing.
        case new
        /// Write every request, replacing what answered it before.
        case all
    }

    public enum Outcome: Sendable, Equatable {
        /// Files written (relative to the folder) and the route that now answers.
        case written(files: [String], route: String)
        /// Nothing written, and why.
        case skipped(String)
        /// Written, but something is wrong (the folder does not load, or does not answer the request).
        case failed(String)
    }

    public static let manifestName = "stubd.recorded.yml"
    static let marker = "  # stubd record: "

    public let root: URL
    public let rules: RecordingRules
    let mode: Mode
    /// The folder as it was when recording started: in `new` mode, what it answered is not written again.
    private let before: StubCatalog?
    private let state = Locked(State())

    private struct State {
        /// Route blocks of `stubd.recorded.yml`, by request key, in file order.
        var blocks: [(key: String, text: String)] = []
        /// This run's answers per request key, for `responses:` sequences.
        var answers: [String: [Answer]] = [:]
        /// Convention files this run wrote, by request key.
        var conventionFiles: [String: String] = [:]
    }

    struct Answer: Equatable {
        var status: Int
        var headers: [String]
        var file: String?
        var body: Data
        static func == (a: Answer, b: Answer) -> Bool { a.status == b.status && a.headers == b.headers && a.body == b.body }
    }

    /// Refuses a folder it cannot write, or one that does not load (its problems listed).
    public init(root: URL, rules: RecordingRules, mode: Mode) throws(RecorderError) {
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
        state.withLock { $0.blocks = StubsRecorder.blocks(of: existing) }
    }

    /// Writes one exchange (or says why not), then checks the folder answers its request.
    public func record(_ exchange: RecordedExchange) -> Outcome {
        let request = exchange.requestHead
        if exchange.path.hasPrefix("/__stubd") { return .skipped("admin call") }
        let scrubbed = ExchangeScrubber.scrub(exchange, rules: rules)
        let key = scrubbed.key
        return state.withLock { state -> Outcome in
            let seenThisRun = state.answers[key] != nil
            if mode == .new, !seenThisRun, let before, case .matched(let route, _) = before.match(request) {
                return .skipped("already answered by \(route.source)")
            }
            var files: [String] = []
            let answer: Answer
            do { answer = try self.answer(scrubbed, key: key, files: &files) } catch {
                return .failed("\(error)")
            }
            var answers = state.answers[key] ?? []
            if answers.last == answer { return .skipped("same answer as before") }
            answers.append(answer)
            state.answers[key] = answers
            let written: Outcome
            do {
                if answers.count == 1, let file = try conventionFile(scrubbed, key: key) {
                    try write(scrubbed.responseBody, to: file)
                    state.conventionFiles[key] = file
                    // Its body went into the convention file itself.
                    for f in files { try? FileManager.default.removeItem(at: root.appendingPathComponent(f)) }
                    written = .written(files: [file], route: "\(scrubbed.method) \(scrubbed.path)")
                } else {
                    if let file = state.conventionFiles.removeValue(forKey: key) {
                        // A second, different answer: a sequence, which only the manifest can say.
                        try? FileManager.default.removeItem(at: root.appendingPathComponent(file))
                        if answers.count == 2 {
                            var first: [String] = []
                            answers[0] = try self.answer(ScrubbedExchange(copying: scrubbed, answer: answers[0]), key: key, files: &first)
                            state.answers[key] = answers
                            files += first
                        }
                    }
                    let block = routeBlock(scrubbed, key: key, answers: answers)
                    if let i = state.blocks.firstIndex(where: { $0.key == key }) { state.blocks[i].text = block }
                    else { state.blocks.append((key, block)) }
                    try writeManifest(state.blocks)
                    files.append(StubsRecorder.manifestName)
                    written = .written(files: files, route: "rec-\(key) (\(scrubbed.method) \(scrubbed.path))")
                }
            } catch {
                return .failed("could not write: \(error)")
            }
            return verify(request, written)
        }
    }

    /// The folder, loaded again, must answer the request it was recorded from.
    private func verify(_ request: RequestHead, _ written: Outcome) -> Outcome {
        do {
            let catalog = try StubCatalog.load(stubs: root)
            guard case .matched = catalog.match(request) else {
                return .failed("the recorded route does not answer \(request.method) \(request.path); \(written)")
            }
            return written
        } catch {
            return .failed("the folder no longer loads after recording \(request.method) \(request.path):\n\(error)")
        }
    }

    // MARK: Forms

    /// The convention file for a request that needs nothing more than its path, or nil.
    private func conventionFile(_ s: ScrubbedExchange, key: String) throws -> String? {
        guard s.status == 200, s.query.allSatisfy({ $0.value == "*" }), s.headers.isEmpty, s.requestJSON == nil,
              s.responseHeaders.allSatisfy({ $0.name.lowercased() == "content-type" }),
              ConventionScanner.methods.contains(s.method), s.path.hasPrefix("/"), !s.path.hasSuffix("/"),
              let ext = StubsRecorder.fileExtension(for: s.mediaType) else { return nil }
        // The recorded type must be the one the extension serves, or the file would lie about it.
        let served = ContentType.forExtension(ext).split(separator: ";").first.map(String.init) ?? ""
        guard served == s.mediaType else { return nil }
        if ConventionScanner.isJSONExtension(ext), (try? JSONParser.parse(s.responseBody)) == nil { return nil }
        var relative = String(s.path.dropFirst())
        let last = relative.split(separator: "/").last.map(String.init) ?? ""
        guard !last.isEmpty, !last.hasPrefix("."), !relative.split(separator: "/").contains(where: { $0 == "__files" }) else { return nil }
        if relative.split(separator: "/").count == 1, ConventionScanner.manifestNames.contains(last) || last == StubsRecorder.manifestName { return nil }
        let hasExt = last.fileExtension == ext
        if hasExt { relative.removeLast(ext.count + 1) }
        if s.method != "GET" { relative += "." + s.method }
        return relative + "." + ext
    }

    /// The answer as a manifest response, its body (if any) written under `__files/`.
    private func answer(_ s: ScrubbedExchange, key: String, files: inout [String]) throws -> Answer {
        var file: String?
        if !s.responseBody.isEmpty {
            var ext = StubsRecorder.fileExtension(for: s.mediaType) ?? "bin"
            // A .json file must parse to load; the route's own Content-Type still says JSON.
            if ext == "json", (try? JSONParser.parse(s.responseBody)) == nil { ext = "bin" }
            let slug = s.path.split(separator: "/").map { $0.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "") }
                .filter { !$0.isEmpty && !$0.hasPrefix(".") }.joined(separator: "/")
            let base = (slug.isEmpty ? "root" : slug).replacingOccurrences(of: ".\(ext)", with: "")
            let name = "\(base)-\(s.method.lowercased())-\(key)-\(files.count + 1).\(ext)"
            try write(s.responseBody, to: "__files/" + name)
            files.append("__files/" + name)
            file = name
        }
        let headers = s.responseHeaders.map { "\(StubsRecorder.quoted($0.name)): \(StubsRecorder.quoted($0.value))" }
        return Answer(status: s.status, headers: headers, file: file, body: s.responseBody)
    }

    private func routeBlock(_ s: ScrubbedExchange, key: String, answers: [Answer]) -> String {
        var lines = [StubsRecorder.marker + key, "  - name: \(StubsRecorder.quoted("rec-\(key)"))", "    request:",
                     "      method: \(s.method)", "      path: \(StubsRecorder.quoted(s.path))"]
        if !s.query.isEmpty {
            lines.append("      query: { " + s.query.map { "\(StubsRecorder.quoted($0.name)): \(StubsRecorder.quoted($0.value))" }.joined(separator: ", ") + " }")
        }
        if !s.headers.isEmpty {
            lines.append("      headers: { " + s.headers.map { "\(StubsRecorder.quoted($0.name)): \(StubsRecorder.quoted($0.value))" }.joined(separator: ", ") + " }")
        }
        if let json = s.requestJSON { lines.append("      body: { json: \(json.serialized) }") }
        func response(_ a: Answer) -> String {
            var parts = ["status: \(a.status)"]
            if !a.headers.isEmpty { parts.append("headers: { " + a.headers.joined(separator: ", ") + " }") }
            if let file = a.file { parts.append("file: \(StubsRecorder.quoted(file))") }
            return "{ " + parts.joined(separator: ", ") + " }"
        }
        if answers.count == 1 {
            lines.append("    response: " + response(answers[0]))
        } else {
            lines.append("    responses:")
            for a in answers { lines.append("      - " + response(a)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Files

    private func writeManifest(_ blocks: [(key: String, text: String)]) throws {
        let header = """
        # stubd.recorded.yml: routes written by `stubd record` (and `stubd serve --record-missing`).
        # stubd loads it after stubd.yml. Recording again rewrites the blocks it owns (one per
        # "# stubd record:" line); edit them freely, or move them into stubd.yml.
        routes:

        """
        try write(Data((header + blocks.map(\.text).joined(separator: "\n")).utf8), to: StubsRecorder.manifestName)
    }

    /// Written to a temporary name and renamed, so a watcher never reads half a file.
    private func write(_ data: Data, to relative: String) throws {
        let url = root.appendingPathComponent(relative).standardizedFileURL
        // Names are built from requests: whatever they hold, nothing lands outside the folder.
        guard url.path.hasPrefix(root.path + "/") else { throw RecorderError("\(relative) would be outside \(root.path)") }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temp = url.deletingLastPathComponent().appendingPathComponent(".stubd-record-\(UUID().uuidString)")
        try data.write(to: temp)
        if rename(temp.path, url.path) != 0 { throw RecorderError("cannot write \(relative)") }
    }

    static func blocks(of text: String) -> [(key: String, text: String)] {
        var blocks: [(key: String, text: String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(marker) {
                blocks.append((String(line.dropFirst(marker.count)), String(line) + "\n"))
            } else if !blocks.isEmpty, !line.isEmpty {
                blocks[blocks.count - 1].text += line + "\n"
            }
        }
        return blocks
    }

    /// A YAML scalar that reads back as exactly this string (JSON's quoting is valid YAML).
    static func quoted(_ text: String) -> String {
        var out = ""
        JSONValue.writeString(text, to: &out)
        return out
    }

    static func fileExtension(for mediaType: String?) -> String? {
        switch mediaType {
        case let m? where ExchangeScrubber.isJSON(m): return "json"
        case "text/html": return "html"
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

extension ScrubbedExchange {
    /// The same request with an earlier answer, to write that answer's body again as a manifest file.
    init(copying s: ScrubbedExchange, answer: StubsRecorder.Answer) {
        self = s
        status = answer.status
        responseBody = answer.body
    }
}

/// Why recording cannot start or go on.
public struct RecorderError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
