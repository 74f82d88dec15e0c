import Foundation
package import HTTPTypes
package import StubdEngine

/// Takes a request's parameters out of its path, query, headers and cookies as their `style` and
/// `explode` wrote them (OpenAPI's "Style Examples"), before their schema judges them.
///
/// Values arrive percent-decoded (libmicrohttpd decodes the query, the transport the path), so a
/// delimiter sent encoded (`%2C`) splits like one sent plain: `allowReserved` changes what a client may
/// leave unencoded, not how a server reads the value.
package struct ParameterReader {
    /// What a parameter's text says before its schema types it: text for a primitive, an array or
    /// object of strings for the others.
    package enum Reading: Equatable {
        /// Not sent at all (a required one is a violation).
        case absent
        case text(String)
        /// Items and members still strings: `JSONSchema.coerceParameter` types them by the schema.
        case value(JSONValue)
        /// Sent, but not as its style writes it: the message says what was expected.
        case malformed(String)
    }

    private let pathValues: [String: String]
    private let query: [QueryItem]
    private let headers: HTTPFields
    /// The request's cookies, read once from its `Cookie` headers.
    private let cookies: [QueryItem]
    /// Names the operation's other parameters of each place take, so an open exploded object
    /// (`?any=thing&other=one` for a free-form `filter`) does not claim them.
    private let claimed: [ContractParameter.Place: Set<String>]

    package init(pathValues: [String: String], query: [QueryItem], headers: HTTPFields, parameters: [ContractParameter]) {
        self.pathValues = pathValues
        self.query = query
        self.headers = headers
        self.cookies = parameters.contains { $0.place == .cookie } ? Self.cookies(in: headers) : []
        var claimed: [ContractParameter.Place: Set<String>] = [:]
        for parameter in parameters {
            claimed[parameter.place, default: []].insert(parameter.name)
            if case .object(let properties, false) = parameter.shape, parameter.explode {
                claimed[parameter.place, default: []].formUnion(properties)
            }
        }
        self.claimed = claimed
    }

    package func read(_ parameter: ContractParameter) -> Reading {
        if parameter.contentType != nil {
            // A `content` parameter is one document (JSON, most often), written whole.
            let text: String?
            switch parameter.place {
            case .path: text = pathValues[parameter.name]
            case .query: text = query.first { $0.name == parameter.name }.map { $0.value ?? "" }
            case .header: text = headers.firstValue(ofCanonicalName: parameter.canonicalName)
            case .cookie: text = cookies.first { $0.name == parameter.name }.map { $0.value ?? "" }
            }
            return text.map { .text($0) } ?? .absent
        }
        switch parameter.place {
        case .path:
            guard let text = pathValues[parameter.name] else { return .absent }
            return Self.styled(text, parameter)
        case .header:
            let values = headers.filter { $0.name.canonicalName == parameter.canonicalName }.map(\.value)
            guard let first = values.first else { return .absent }
            if parameter.shape == .primitive { return .text(first) }
            // An HTTP list may be sent as several lines and spaces around its commas.
            return Self.simple(values.joined(separator: ","), parameter, trimming: true)
        case .query:
            return form(query, parameter)
        case .cookie:
            return form(cookies, parameter)
        }
    }

    // MARK: Path: simple, label, matrix

    /// A value written into one piece of text (a path segment; a header as simple): label's `.`,
    /// matrix's `;name=`, or simple's nothing in front.
    private static func styled(_ text: String, _ p: ContractParameter) -> Reading {
        switch p.style {
        case .label:
            guard text.first == "." else {
                return .malformed("\(p.described) starts with '.', as in .blue, .blue.black.brown or .R=100.G=200; got '\(text)'")
            }
            let rest = String(text.dropFirst())
            switch p.shape {
            case .primitive: return .text(rest)
            case .array: return .value(.array(labelItems(rest, p).map { .string($0) }))
            case .object: return members(labelItems(rest, p), p, exploded: p.explode)
            }
        case .matrix:
            return matrix(text, p)
        default:
            return simple(text, p, trimming: false)
        }
    }

    /// Label items: exploded, `.`-separated; not exploded, OpenAPI 3.0's table writes `.blue.black.brown`
    /// where RFC 6570 (and 3.1.1's table) write `.blue,black,brown`: a comma says which one was meant.
    private static func labelItems(_ rest: String, _ p: ContractParameter) -> [String] {
        if rest.isEmpty { return [] }
        let separator: Character = !p.explode && rest.contains(",") ? "," : "."
        return rest.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    }

    private static func simple(_ text: String, _ p: ContractParameter, trimming: Bool) -> Reading {
        if p.shape == .primitive { return .text(text) }
        var items = text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if trimming { items = items.map { $0.trimmingCharacters(in: .whitespaces) } }
        if p.shape == .array { return .value(.array(items.map { .string($0) })) }
        return members(items, p, exploded: p.explode)
    }

    /// `;color=blue`, `;color=blue,black,brown`, `;color=blue;color=black`, `;R=100;G=200`.
    private static func matrix(_ text: String, _ p: ContractParameter) -> Reading {
        let example = p.shape == .primitive ? ";\(p.name)=blue" : p.explode
            ? (p.shape == .array ? ";\(p.name)=blue;\(p.name)=black" : ";R=100;G=200") : ";\(p.name)=blue,black"
        guard text.first == ";" else {
            return .malformed("\(p.described) starts with ';', as in \(example); got '\(text)'")
        }
        let parts = text.dropFirst().split(separator: ";", omittingEmptySubsequences: false).map { part -> (String, String) in
            guard let eq = part.firstIndex(of: "=") else { return (String(part), "") }
            return (String(part[..<eq]), String(part[part.index(after: eq)...]))
        }
        if p.explode, case .object = p.shape {
            return .value(.object(Dictionary(parts.map { ($0.0, JSONValue.string($0.1)) }) { first, _ in first }))
        }
        if p.explode, p.shape == .array {
            if let stranger = parts.first(where: { $0.0 != p.name }) {
                return .malformed("\(p.described) is written \(example); got '\(text)' ('\(stranger.0)' where '\(p.name)' belongs)")
            }
            return .value(.array(parts.map { .string($0.1) }))
        }
        guard parts.count == 1, parts[0].0 == p.name else {
            return .malformed("\(p.described) is written \(example); got '\(text)'")
        }
        return p.shape == .primitive ? .text(parts[0].1) : simple(parts[0].1, p, trimming: false)
    }

    /// An object's members from its items: `R,100,G,200` as pairs, or `R=100,G=200` exploded.
    private static func members(_ items: [String], _ p: ContractParameter, exploded: Bool) -> Reading {
        var out: [String: JSONValue] = [:]
        if exploded {
            for item in items {
                guard let eq = item.firstIndex(of: "=") else {
                    return .malformed("\(p.described) lists its members as name=value, as in R=100,G=200; '\(item)' has no '='")
                }
                out[String(item[..<eq])] = .string(String(item[item.index(after: eq)...]))
            }
        } else {
            guard items.count % 2 == 0 else {
                return .malformed("\(p.described) lists its members as name and value in turn, as in R,100,G,200; got \(items.count) items")
            }
            for i in stride(from: 0, to: items.count, by: 2) where out[items[i]] == nil { out[items[i]] = .string(items[i + 1]) }
        }
        return .value(.object(out))
    }

    // MARK: Query and cookie: form, spaceDelimited, pipeDelimited, deepObject

    private func form(_ items: [QueryItem], _ p: ContractParameter) -> Reading {
        if p.style == .deepObject { return Self.deepObject(items, p) }
        let named = items.filter { $0.name == p.name }.map { $0.value ?? "" }
        switch p.shape {
        case .primitive:
            return named.first.map { .text($0) } ?? .absent
        case .array:
            if p.explode { return named.isEmpty ? .absent : .value(.array(named.map { .string($0) })) }
            guard let text = named.first else { return .absent }
            return .value(.array(Self.split(text, p).map { .string($0) }))
        case .object(let properties, let open):
            if p.explode {
                // `?offset=1&limit=123` for `pagination: {offset, limit}`: the parameter's name is not sent.
                let others = claimed[p.place] ?? []
                var out: [String: JSONValue] = [:]
                for item in items where out[item.name] == nil
                    && (properties.contains(item.name) || (open && !others.contains(item.name))) {
                    out[item.name] = .string(item.value ?? "")
                }
                return out.isEmpty ? .absent : .value(.object(out))
            }
            guard let text = named.first else { return .absent }
            return Self.members(Self.split(text, p), p, exploded: false)
        }
    }

    private static func split(_ text: String, _ p: ContractParameter) -> [String] {
        let delimiter: Character = p.style == .spaceDelimited ? " " : p.style == .pipeDelimited ? "|" : ","
        return text.isEmpty ? [] : text.split(separator: delimiter, omittingEmptySubsequences: false).map(String.init)
    }

    /// `color[R]=100&color[G]=200`; `a[b][c]=1` nests.
    private static func deepObject(_ items: [QueryItem], _ p: ContractParameter) -> Reading {
        var root: [String: JSONValue] = [:]
        var found = false
        for item in items where item.name.hasPrefix(p.name + "[") {
            found = true
            var keys: [String] = []
            var rest = item.name.dropFirst(p.name.count)
            while let open = rest.first, open == "[" {
                guard let close = rest.firstIndex(of: "]") else { break }
                keys.append(String(rest[rest.index(after: rest.startIndex)..<close]))
                rest = rest[rest.index(after: close)...]
            }
            guard rest.isEmpty, !keys.isEmpty else {
                return .malformed("\(p.described) is written \(p.name)[R]=100&\(p.name)[G]=200; got '\(item.name)'")
            }
            insert(.string(item.value ?? ""), at: keys[...], into: &root)
        }
        return found ? .value(.object(root)) : .absent
    }

    private static func insert(_ value: JSONValue, at keys: ArraySlice<String>, into object: inout [String: JSONValue]) {
        guard let key = keys.first else { return }
        if keys.count == 1 {
            if object[key] == nil { object[key] = value }
            return
        }
        var inner: [String: JSONValue] = [:]
        if case .object(let existing)? = object[key] { inner = existing } else if object[key] != nil { return }
        insert(value, at: keys.dropFirst(), into: &inner)
        object[key] = .object(inner)
    }

    /// `Cookie: a=1; b=2`, each value percent-decoded as OpenAPI's form style writes it (one that does
    /// not decode is taken as sent) and a quoted one unquoted (RFC 6265's cookie-value).
    static func cookies(in headers: HTTPFields) -> [QueryItem] {
        var out: [QueryItem] = []
        for field in headers where field.name == .cookie {
            let line = field.value
            for pair in line.split(separator: ";") {
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                guard let eq = trimmed.firstIndex(of: "="), eq != trimmed.startIndex else { continue }
                var value = String(trimmed[trimmed.index(after: eq)...])
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                out.append(QueryItem(name: String(trimmed[..<eq]), value: value.removingPercentEncoding ?? value))
            }
        }
        return out
    }
}
