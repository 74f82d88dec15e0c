import Foundation
package import HTTPTypes
import StubdProtocol
package import StubdEngine

extension APIContract {
    /// `X-Stubd-Problem`: stubd's own reason for an answer it sent in the spec's shape rather than as
    /// problem+json (the body then says what the spec says, not why).
    package static let problemHeader = HTTPField.Name("X-Stubd-Problem")!

    /// One of stubd's own answers (the 404 when no stub matches, strict mode's 422, a 415 or 401) in
    /// the shape the spec declares for its status on the request's operation, so a client generated
    /// from the spec decodes it as the documented case rather than throwing "unexpected content type".
    ///
    /// Unchanged when the request is for no operation, the operation does not declare the status
    /// (nor a range or `default` covering it), or it declares a type problem+json falls under.
    /// Otherwise the body is the spec's example for the best media type the request accepts, else a
    /// body sampled from its schema with stubd's message in a string member (`message`, `detail`…)
    /// when the schema allows one; the reason goes in `X-Stubd-Problem`. When no body that keeps to
    /// the schema can be made, the problem is sent in the declared type and `X-Stubd-Contract` says why.
    package func shapedAsDeclared(_ answer: GeneratedResponse, for request: RequestHead) -> GeneratedResponse {
        guard let type = answer.headers[.contentType], type.hasPrefix(ContentType.problemJSON),
              let (operation, _) = operation(method: request.method, path: request.segments),
              let response = operation.response(for: answer.status) else { return answer }
        let problem = (try? JSONParser.parse(answer.body)) ?? .object([:])
        let title = Self.member("title", of: problem)
        let detail = Self.member("detail", of: problem) ?? title ?? ""
        let reason = title.map { "\($0): \(detail)" } ?? detail
        var shaped = answer
        shaped.headers[Self.problemHeader] = Outcome.headerText(reason)
        if response.media.isEmpty {
            // The spec declares no body: send none, as the real API would.
            shaped.headers[.contentType] = nil
            shaped.body = Data()
            return shaped
        }
        if response.media(for: ContentType.problemJSON) != nil { return answer }
        let accept = AcceptHeader(request.header(.accept))
        let media = accept.best(of: response.media.map(\.type)).map { response.media[$0] }
            ?? response.media.first { ContentType.isJSON(mediaType: $0.type) } ?? response.media[0]
        // A declared range (`text/*`) names no type to send.
        if media.type.contains("*") { return answer }
        shaped.headers[.contentType] = media.type
        switch body(for: media, message: detail, problem: answer.body) {
        case .success(let body):
            shaped.body = body
        case .failure(let why):
            shaped.headers[Outcome.contractHeader] = Outcome.headerText(
                "stubd's own \(answer.status.code) answer does not keep to \(response.location)/content/\(JSONPointer.escape(media.type)): \(why.why)")
        }
        return shaped
    }

    private struct Unshapeable: Error { let why: String }

    private static func member(_ name: String, of object: JSONValue) -> String? {
        if case .object(let members) = object, case .string(let text)? = members[name] { return text }
        return nil
    }

    /// The spec's example, else a sample of the schema carrying `message`; `problem` (stubd's own
    /// body) where the spec allows any JSON; why not when nothing stubd can make keeps to the schema.
    private func body(for media: ContractMedia, message: String, problem: Data) -> Result<Data, Unshapeable> {
        let isJSON = ContentType.isJSON(mediaType: media.type)
        if let example = media.example {
            if !isJSON, case .string(let text) = example { return .success(Data(text.utf8)) }
            if isJSON, media.schema?.isValid(example) ?? true { return .success(Data(example.serialized.utf8)) }
        }
        guard let schema = media.schema else {
            return .success(isJSON ? problem : Data(message.utf8))
        }
        if !isJSON {
            // Text: the message itself when the schema takes a string.
            return schema.isValid(.string(message)) ? .success(Data(message.utf8))
                : .failure(Unshapeable(why: "its schema takes no text stubd can make, and the spec gives no example"))
        }
        guard let sample = sample(media) else {
            return .failure(Unshapeable(why: "stubd could not sample a value of its schema; give the response an example"))
        }
        return .success(Data(Self.carrying(message, in: sample, schema).serialized.utf8))
    }

    /// A value of the schema at `media.schemaPointer`, sampled once and kept.
    private func sample(_ media: ContractMedia) -> JSONValue? {
        guard let pointer = media.schemaPointer, let schema = media.schema else { return nil }
        if let known = samples.withLock({ $0[pointer] }) { return known }
        var value: JSONValue?
        if let tokens = JSONPointer.tokens(ofFragment: pointer), let raw = JSONPointer.resolve(tokens, in: document) {
            let sampler = SchemaSampler(document: document, dialect: dialect)
            // As the importer does: a few draws, the first that keeps to the schema.
            for attempt in 0..<4 {
                var random = SeededRandom(seed: "stubd's own answer \(pointer) \(attempt)")
                if let drawn = try? sampler.sample(raw, at: pointer, random: &random), schema.isValid(drawn) {
                    value = drawn
                    break
                }
            }
        }
        samples.withLock { $0[pointer] = value }
        return value
    }

    /// Members a client shows a user, most telling first: stubd's message goes in the first the schema lets it.
    private static let messageMembers = ["message", "detail", "error_description", "error_message", "errorMessage",
                                         "description", "error", "title", "reason", "msg"]

    /// `sample` with `message` in one of its string members (or nested one level, as `{"error": {"message"}}`),
    /// when the schema still holds; else `sample` as it was.
    private static func carrying(_ message: String, in sample: JSONValue, _ schema: JSONSchema) -> JSONValue {
        guard case .object(let members) = sample else {
            return schema.isValid(.string(message)) ? .string(message) : sample
        }
        var candidates: [[String]] = messageMembers.map { [$0] }
        for name in messageMembers { if case .object(let inner)? = members[name] {
            candidates += messageMembers.filter { inner[$0] != nil }.map { [name, $0] }
        } }
        candidates += members.keys.sorted().filter { if case .string = members[$0]! { true } else { false } }.map { [$0] }
        for path in candidates {
            let tried = setting(.string(message), at: path[...], in: sample)
            if tried != sample, schema.isValid(tried) { return tried }
        }
        return sample
    }

    private static func setting(_ value: JSONValue, at path: ArraySlice<String>, in object: JSONValue) -> JSONValue {
        guard let name = path.first, case .object(var members) = object else { return object }
        if path.count == 1 {
            members[name] = value
        } else {
            guard let inner = members[name] else { return object }
            members[name] = setting(value, at: path.dropFirst(), in: inner)
        }
        return .object(members)
    }
}
