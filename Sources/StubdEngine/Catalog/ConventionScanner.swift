import Foundation
import HTTPTypes
import StubdProtocol

/// Turns every regular file under the stubs root into a route: `Stubs/a/{id}.GET.json` → `GET /a/{id}.json`.
package struct ConventionScanner {
    /// As a file name spells them (`users.POST.json`); each is an HTTP method token.
    package static let methods = RouteReference.methods
    /// Never served as stubs: the manifest, and the recorder's own (`stubd.recorded.yml`).
    package static let manifestNames = Set(ManifestFile.names + [ManifestFile.recorded])
    static let conventionPriority = 10

    let reader: StubFileReader
    package var problems = ProblemList()
    package var routes: [Route] = []
    var fileCount = 0

    package init(reader: StubFileReader) { self.reader = reader }

    mutating func scan(defaultHeaders: HTTPFields) {
        var visited = Set<String>()
        walk(directory: reader.root.path, relative: "", defaultHeaders: defaultHeaders, visited: &visited)
    }

    private mutating func walk(directory: String, relative: String,
                               defaultHeaders: HTTPFields, visited: inout Set<String>) {
        // A directory reached twice through links would loop forever.
        guard let real = StubFileReader.realPath(directory), visited.insert(real).inserted else { return }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted() } catch {
            problems.add(relative.isEmpty ? "." : relative, "cannot list the directory: \(error.localizedDescription)")
            return
        }
        for name in names {
            // Dot-files are editor and VCS litter (.DS_Store, .git, swap files), never stubs.
            if name.hasPrefix(".") { continue }
            let rel = relative.isEmpty ? name : relative + "/" + name
            if relative.isEmpty, name == "__files" || ConventionScanner.manifestNames.contains(name) { continue }
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let isLink = (info.st_mode & S_IFMT) == S_IFLNK
            if isLink {
                guard reader.isInsideRoot(path) else {
                    problems.add(rel, "symlink points outside the stubs directory",
                                 hint: "copy the file into the stubs directory, or link to a file inside it")
                    continue
                }
                guard stat(path, &info) == 0 else {
                    problems.add(rel, "broken symlink", hint: "remove it or point it at a file")
                    continue
                }
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: walk(directory: path, relative: rel, defaultHeaders: defaultHeaders, visited: &visited)
            case S_IFREG: addFile(path: path, relative: rel, defaultHeaders: defaultHeaders)
            default: continue
            }
        }
    }

    private mutating func addFile(path: String, relative: String, defaultHeaders: HTTPFields) {
        fileCount += 1
        guard let data = FileManager.default.contents(atPath: path) else {
            problems.add(relative, "cannot read the file", hint: "check its permissions")
            return
        }
        var components = relative.split(separator: "/").map(String.init)
        var fileName = components.removeLast()
        // `{y}.{format}` with no extension of its own: `{format}` is a parameter, not an extension.
        let ext = fileName.fileExtension.flatMap { $0.contains("}") ? nil : $0 }
        if let ext { fileName.removeLast(ext.count + 1) }
        // `{zip}.tmpl.json` (or `{id}.POST.tmpl.json`): a template serving `{zip}.json`.
        let templated = fileName.fileExtension == "tmpl"
        if templated { fileName.removeLast(5) }
        // `GetWeather.graphql.json` (or `.graphql.tmpl.json`): the GraphQL operation GetWeather, sent to
        // the folder's path (`Stubs/graphql/GetWeather.graphql.json` answers it on /graphql).
        if fileName.fileExtension == "graphql" {
            fileName.removeLast(8)
            addOperation(fileName, folder: components, relative: relative, data: data, ext: ext, templated: templated, defaultHeaders: defaultHeaders)
            return
        }
        var method = "GET"
        if let methodExt = fileName.fileExtension, ConventionScanner.methods.contains(methodExt) {
            method = methodExt
            fileName.removeLast(methodExt.count + 1)
        }
        // A template's JSON is whole only once rendered (`"n": {{hits}}`), so it is not checked here.
        if ConventionScanner.isJSONExtension(ext), !templated {
            do { _ = try JSONParser.parse(data) } catch {
                problems.add(relative, line: error.line, column: error.column, "invalid JSON: \(error.message)",
                             hint: "fix the JSON, or serve a deliberately broken body through the manifest (fault: malformed_json)")
                return
            }
        }
        let patternText = "/" + (components + [fileName]).joined(separator: "/")
        let pattern: PathPattern
        do { pattern = try PathPattern(parsing: patternText, optionalExtension: ext.map { "." + $0 }) } catch {
            problems.add(relative, "file name is not a valid route: \(error.description)")
            return
        }
        var headers: HTTPFields = [.contentType: ContentType.forExtension(ext)]
        headers.append(contentsOf: defaultHeaders.filter { $0.name != .contentType })
        // `{name}.sse`: server-sent events in their wire format, each sent when due.
        var events: EventStream?
        if ext?.lowercased() == "sse" {
            let parsed = EventStreamParser.parse(String(decoding: data, as: UTF8.self))
            for e in parsed.problems { problems.add(relative, line: e.line, column: e.column, e.message, hint: e.hint) }
            guard parsed.problems.isEmpty else { return }
            events = EventStream(events: parsed.events)
            if headers[.cacheControl] == nil { headers.append(HTTPField(name: .cacheControl, value: "no-cache")) }
        }
        // `{name}.ws`: a WebSocket's script (the manifest's `websocket:` mapping, in YAML).
        var webSocket: WebSocketScript?
        if ext?.lowercased() == "ws" {
            let (script, found) = ManifestParser.webSocketFile(String(decoding: data, as: UTF8.self), file: relative, reader: reader)
            for p in found.items { problems.add(p) }
            guard let script else { return }
            webSocket = script
        }
        var template: ResponseTemplate?
        if templated {
            guard let parsed = parseTemplate(data, relative: relative, pattern: pattern, ext: ext) else { return }
            template = parsed
        }
        let response = CannedResponse(status: 200, headers: headers, body: events == nil && webSocket == nil ? data : Data(),
                                      bodySource: relative, template: template, events: events, webSocket: webSocket)
        routes.append(Route(name: nil, method: .only(method == "HEAD" ? .get : HTTPRequest.Method(method)!), pattern: pattern,
                            responses: [response], priority: ConventionScanner.conventionPriority,
                            source: .convention(file: relative)))
    }

    /// `Stubs/<endpoint>/<Operation>.graphql.json`: answers the operation on the folder's path, by GET
    /// or POST. The infix, not the folder's name, says it is an operation's, as `.POST.` says a method:
    /// `Stubs/graphql/GetWeather.json` keeps answering `GET /graphql/GetWeather`.
    private mutating func addOperation(_ operation: String, folder: [String], relative: String, data: Data, ext: String?,
                                       templated: Bool, defaultHeaders: HTTPFields) {
        guard let first = operation.unicodeScalars.first, GraphQLLexer.isNameStart(first),
              operation.unicodeScalars.allSatisfy(GraphQLLexer.isNameContinue) else {
            problems.add(relative, "'\(operation)' is not a GraphQL operation name",
                         hint: "name the file after the operation: letters, digits and _, not starting with a digit (GetWeather.graphql.json)")
            return
        }
        if ConventionScanner.isJSONExtension(ext), !templated {
            do { _ = try JSONParser.parse(data) } catch {
                problems.add(relative, line: error.line, column: error.column, "invalid JSON: \(error.message)",
                             hint: "fix the JSON, or serve a deliberately broken body through the manifest (fault: malformed_json)")
                return
            }
        }
        let pattern: PathPattern
        do { pattern = try PathPattern(parsing: "/" + folder.joined(separator: "/")) } catch {
            problems.add(relative, "the folder is not a valid path: \(error.description)")
            return
        }
        var headers: HTTPFields = [.contentType: ContentType.forExtension(ext)]
        headers.append(contentsOf: defaultHeaders.filter { $0.name != .contentType })
        var template: ResponseTemplate?
        if templated {
            guard let parsed = parseTemplate(data, relative: relative, pattern: pattern, ext: ext) else { return }
            template = parsed
        }
        var conditions = RequestConditions()
        conditions.graphQL = GraphQLMatch(operationName: operation)
        let response = CannedResponse(status: 200, headers: headers, body: data, bodySource: relative, template: template)
        routes.append(Route(name: nil, method: .any, pattern: pattern, conditions: conditions, responses: [response],
                            priority: ConventionScanner.conventionPriority, source: .convention(file: relative)))
    }

    /// A `.tmpl` file's template, or nil with its problems added (each at its line and column, a
    /// block's where it was opened): a path file's and an operation file's alike.
    private mutating func parseTemplate(_ data: Data, relative: String, pattern: PathPattern, ext: String?) -> ResponseTemplate? {
        do {
            return try ResponseTemplate.parse(body: String(decoding: data, as: UTF8.self), headers: [:],
                                              parameters: pattern.parameterNames,
                                              json: ContentType.isJSON(mediaType: ContentType.forExtension(ext)))
        } catch {
            for e in error.body {
                let opened = e.opened.map { " opened at \($0.line):\($0.column)" } ?? ""
                problems.add(relative, line: e.line, column: e.column, "template: \(e.message)\(opened)", hint: e.hint)
            }
            return nil
        }
    }

    /// One file's route, as a whole scan would make it: the recorder checks what it wrote without
    /// scanning the folder again.
    package mutating func scan(file relative: String) {
        addFile(path: reader.root.path + "/" + relative, relative: relative, defaultHeaders: [:])
    }

    package static func isJSONExtension(_ ext: String?) -> Bool { ContentType.isJSON(extension: ext) }
}
