package import Foundation
import HTTPTypes
import StubdEngine

/// `stubd import har`: the requests of a HAR file written into a Stubs folder exactly as
/// `stubd record` would have written them had the client gone through it (StubsRecorder does the
/// writing): convention files where the path alone decides, `stubd.recorded.yml` routes where it does
/// not, secrets scrubbed, a request answered differently twice written as a sequence.
///
/// The whole file is read and checked (an entry at a time, see HARDocument) before anything is written; after writing, the folder is
/// loaded as `stubd serve` loads it and must answer every imported request, or the import is taken
/// back whole.
package struct HARImporter {
    package struct Options: Sendable {
        /// `--host`: nil takes the file's only host (and refuses a file with several), `all` puts
        /// each host in a folder named after it, a name takes that host alone (any port unless given).
        package var host: String?
        /// `--keep-timing`: each answer waits what the real one took (`timings.wait`).
        package var keepTiming = false
        package var rules = RecordingRules()
        package init() {}
    }

    package let root: URL
    package let options: Options

    package init(root: URL, options: Options) {
        self.root = root.standardizedFileURL
        self.options = options
    }

    package func run(_ document: HARDocument, name: String) throws(ImportError) -> ImportReport {
        guard document.count > 0 else { throw ImportError("\(name) holds no requests (/log/entries is empty); nothing written") }
        let (picks, prefixFor, others) = try choose(document.hosts, name: name)
        var report = ImportReport()
        report.otherHosts = others

        let writer = try StubsImport(root: root, rules: options.rules)
        let masker = SecretMasker(options.rules.secrets.map { ($0.value, $0.placeholder) })
        var answersPerRoute: [String: Int] = [:]
        // The file is read a second time, an entry at a time: `document` checked every entry already.
        try document.forEachEntry { (entry: HAREntry) throws(ImportError) in
            guard picks(entry) else { return }
            let prefix = prefixFor(entry)
            let target = masker.mask(prefix + entry.path) + (entry.query.isEmpty ? "" : "?" + entry.query.map { $0.name + ($0.value == nil ? "" : "=…") }.joined(separator: "&"))
            func row(_ kind: ImportRow.Kind, _ result: String) {
                report.rows.append(ImportRow(source: "\(entry.index + 1)", method: entry.method.rawValue, target: target,
                                                status: entry.status, kind: kind, result: result))
            }
            if let leftOut = entry.leftOut { row(.leftOut, leftOut); return }
            if let prefix = prefix.nilIfEmpty, !HostScope.isHostFolderName(String(prefix.dropFirst())) {
                row(.leftOut, "\(entry.host) is an address, not a host name, so it cannot have a host folder: import it alone with --host \(entry.host)")
                return
            }
            let exchange = self.exchange(entry, prefix: prefix)
            let (kind, place, routeName, files) = StubsImport.describe(writer.write(exchange, label: "\(exchange.method) \(masker.mask(exchange.path))"))
            if let routeName {
                report.files.formUnion(files)
                report.routes.insert(routeName)
                answersPerRoute[routeName, default: 0] += 1
                let count = answersPerRoute[routeName]!
                row(kind, count > 1 ? "\(place) (answer \(count) of a sequence)" : place)
            } else {
                row(kind, place)
            }
        }
        // What `stubd serve` will load: the whole folder, and it must answer each request imported.
        try writer.finish(input: "HAR")
        return report
    }

    /// Which entries to import, the path prefix each gets (a host folder, or none), and the others' hosts.
    private func choose(_ entries: [(host: String, hostName: String)], name: String) throws(ImportError)
        -> ((HAREntry) -> Bool, (HAREntry) -> String, [(host: String, count: Int)]) {
        var hosts: [(host: String, count: Int)] = []
        for entry in entries {
            if let i = hosts.firstIndex(where: { $0.host == entry.host }) { hosts[i].count += 1 } else { hosts.append((entry.host, 1)) }
        }
        let listed = hosts.map { "\($0.host) (\($0.count))" }.joined(separator: ", ")
        switch options.host?.lowercased() {
        case nil:
            guard hosts.count == 1 else {
                throw ImportError("\(name) holds requests to \(hosts.count) hosts: \(listed). Pass --host NAME to import one at the top of the folder, "
                                     + "or --host all to import each into a folder named after it (answered in proxy mode, see docs/https-and-proxy.md); nothing written")
            }
            return ({ _ in true }, { _ in "" }, [])
        case "all"?:
            return ({ _ in true }, { "/" + $0.hostName }, [])
        case let wanted?:
            // `api.example.com` takes any port; `127.0.0.1:8000` that port only.
            let picked = entries.filter { $0.host == wanted || $0.hostName == wanted }
            guard !picked.isEmpty else {
                throw ImportError("\(name) holds no request to \(wanted); its hosts: \(listed); nothing written")
            }
            var others: [(host: String, count: Int)] = []
            for entry in entries where !(entry.host == wanted || entry.hostName == wanted) {
                if let i = others.firstIndex(where: { $0.host == entry.host }) { others[i].count += 1 } else { others.append((entry.host, 1)) }
            }
            return ({ $0.host == wanted || $0.hostName == wanted }, { _ in "" }, others)
        }
    }

    /// The entry as the recorder takes a forwarded request: a redirect's target on the same host
    /// made relative (it then points at stubd), the Content-Type from `content.mimeType` when the
    /// headers have none, the wait kept as a delay with `--keep-timing`.
    func exchange(_ entry: HAREntry, prefix: String) -> RecordedExchange {
        var headers = entry.responseHeaders
        if (300...399).contains(entry.status), headers[.location] == nil, !entry.redirectURL.isEmpty {
            headers[.location] = entry.redirectURL
        }
        if headers[.contentType] == nil, !entry.mimeType.isEmpty, !entry.responseBody.isEmpty, HTTPField.isValidValue(entry.mimeType) {
            headers[.contentType] = entry.mimeType
        }
        let origin = entry.scheme + "://" + entry.host
        for i in headers.indices where headers[i].name == .location && headers[i].value.lowercased().hasPrefix(origin.lowercased()) {
            let rest = String(headers[i].value.dropFirst(origin.count))
            if rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") { headers[i].value = rest.hasPrefix("/") ? rest : "/" + rest }
        }
        var delay: Duration?
        if options.keepTiming, let wait = entry.waitMilliseconds, wait.rounded() >= 1 { delay = .milliseconds(Int(wait.rounded())) }
        return RecordedExchange(method: entry.method, path: prefix + entry.path, query: entry.query, requestHeaders: entry.requestHeaders,
                                requestBody: entry.requestBody, status: HTTPResponse.Status(code: entry.status), responseHeaders: headers,
                                responseBody: entry.responseBody, delay: delay)
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
