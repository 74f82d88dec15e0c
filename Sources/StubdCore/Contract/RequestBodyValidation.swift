import Foundation
import HTTPTypes
import StubdEngine

extension APIContract {
    /// Every way a request's body breaks its operation's `requestBody`: a body of a type the operation
    /// does not take (or to one that takes none) is 415; a JSON, XML, form or multipart body is held to its
    /// schema; any other body the spec gives a schema for is said to be unchecked, never passed in silence.
    static func bodyViolations(of request: RequestHead, for operation: ContractOperation) -> [RequestViolation] {
        let contentType = request.header(.contentType)
        let bare = contentType.map { $0.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased() }
        let isForm = bare == "application/x-www-form-urlencoded" || bare == "multipart/form-data"
        // An empty body is no body, but for a form the operation takes: `curl -d ''` sends the
        // empty form, the object {}.
        let emptyForm = isForm && operation.requestBody?.media.contains { $0.accepts(contentType!) == 2 } == true
        guard !request.body.isEmpty || emptyForm else {
            guard operation.requestBody?.required == true else { return [] }
            return [RequestViolation(location: "body", code: "required", message: "a request body is required")]
        }
        let sent = contentType.map { _ in "a \(request.body.count)-byte \(bare!) body" } ?? "a \(request.body.count)-byte body with no Content-Type"
        guard let declared = operation.requestBody else {
            return [RequestViolation(location: "body", code: "mediaType",
                                     message: "\(operation.signature) takes no request body, and the request sent \(sent)",
                                     refusal: .unsupportedMediaType(accepted: []))]
        }
        guard !declared.media.isEmpty else { return [] }
        // RFC 9110 §8.3: a body without a type may be taken as application/octet-stream.
        let type = contentType ?? "application/octet-stream"
        guard let media = declared.media.compactMap({ m in m.accepts(type).map { (m, $0) } }).max(by: { $0.1 < $1.1 })?.0 else {
            let accepted = declared.media.map(\.type)
            return [RequestViolation(location: "body", code: "mediaType",
                                     message: "\(operation.signature) takes \(accepted.joined(separator: ", ")), and the request sent \(sent)",
                                     refusal: .unsupportedMediaType(accepted: accepted))]
        }
        // A media type without a schema takes anything.
        guard let schema = media.schema else { return [] }
        func judged(_ instance: JSONValue, literals: [String: NumberLiteral] = [:], dropping unchecked: [String] = []) -> [RequestViolation] {
            schema.validate(instance, literals: literals, limit: 20).filter { v in
                !unchecked.contains { v.instancePath == $0 || v.instancePath.hasPrefix($0 + "/") }
            }.map { RequestViolation(location: "body" + $0.instancePath, code: $0.keyword, message: $0.message) }
        }
        switch bare ?? "" {
        case let json where ContentType.isJSON(mediaType: json):
            // Numbers past 2^53 are judged as written: a Double cannot tell Int64's maximum from 2^63.
            do {
                let (instance, literals) = try JSONParser.parseKeepingLiterals(request.body)
                return judged(instance, literals: literals)
            } catch {
                return [RequestViolation(location: "body", code: "json", message: "the body is not JSON: \(error.message)")]
            }
        case "application/x-www-form-urlencoded", "multipart/form-data":
            let form: FormBody
            do {
                form = try bare == "multipart/form-data" ? FormBody.multipart(request.body, contentType: contentType!) : FormBody.urlEncoded(request.body)
            } catch {
                return [RequestViolation(location: "body", code: bare == "multipart/form-data" ? "multipart" : "form", message: error.message)]
            }
            var decoder = FormBodyDecoder(media: media, schema: schema)
            let instance = decoder.instance(of: form)
            let notes = decoder.unchecked.map {
                RequestViolation(location: "body" + $0, code: "unchecked",
                                 message: "not checked: the part is of a type stubd cannot hold to its schema", refusal: nil)
            }
            return decoder.problems + judged(instance, literals: decoder.literals, dropping: decoder.unchecked) + notes
        case let xml where ContentType.isXML(mediaType: xml) && media.xml?.isStructured == true:
            do { return judged(try XMLBodyDecoder.value(of: request.body, guide: media.xml)) } catch {
                return [RequestViolation(location: "body", code: "xml", message: "the body is not XML stubd reads: \(error.description)")]
            }
        case "text/plain":
            guard let text = String(data: request.body, encoding: .utf8) else {
                return [RequestViolation(location: "body", code: "encoding", message: "the text/plain body is not UTF-8")]
            }
            return judged(.string(text))
        default:
            return [RequestViolation(location: "body", code: "unchecked",
                                     message: "not checked: stubd holds JSON, XML, form, multipart and text/plain bodies to their schema, not \(bare ?? "a body with no Content-Type")",
                                     refusal: nil)]
        }
    }
}
