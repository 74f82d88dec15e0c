import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine

/// A request's secrets masked by value wherever the journal and its HAR export show them (issue 57):
/// found after decoding the JSON they sit in, masked in every spelling JSON and URLs give them, and
/// a secret field's value masked whatever its length.
@Suite struct JournalSecretsTests {
    /// An exchange as the journal keeps it: `body` sent as JSON with `headers`, answered with `answer`.
    static func entry(body: String, headers: HTTPFields = [:], query: [QueryItem] = [], answer: String = "{}",
                      misses: [String] = []) -> JournalEntry {
        var fields = headers
        fields[.contentType] = "application/json"
        let request = RequestHead(method: .post, path: "/login", query: query, headers: fields, body: Data(body.utf8))
        let generated = Outcome.Answer.generated(GeneratedResponse(status: .ok, headers: [.contentType: "application/json"], body: Data(answer.utf8)))
        return JournalEntry(time: Date(), method: .post, path: "/login", query: query, headers: fields, status: misses.isEmpty ? .ok : .notFound,
                            route: nil, misses: misses, bodies: JournalBodies(request: request, answer: generated))
    }

    /// Everything the journal and the HAR show of `entry`, as one text.
    static func shown(_ entry: JournalEntry) throws -> String {
        let masking = JournalMasking()
        let bodies = entry.bodies!.shown(for: entry, masking: masking)
        let document = entry.document(masking: masking, masker: entry.secretMasker(masking: masking))
        let har = String(decoding: JournalHAR(entries: [entry], masking: masking).data, as: UTF8.self)
        return String(decoding: bodies.requestBody + bodies.responseBody, as: UTF8.self) + "\n"
            + String(decoding: try JSONEncoder().encode(document), as: UTF8.self) + "\n" + har
    }

    /// Every way `value` is written in JSON or a URL that the probe found in clear.
    static func spellings(_ value: String) -> [String] {
        [value, SecretSpellings.jsonEscaped(value, escapingSlash: true, nonASCII: nil),
         SecretSpellings.jsonEscaped(value, escapingSlash: false, nonASCII: .lower),
         SecretSpellings.jsonEscaped(value, escapingSlash: true, nonASCII: .upper),
         value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value]
    }

    @Test(arguments: [(#"{"user": "ann", "password": "pass\/word9"}"#, "pass/word9"),
                      (#"{"user": "ann", "password": "pa\"ss42x"}"#, #"pa"ss42x"#),
                      (#"{"user": "ann", "password": "caf\u00e9pass1"}"#, "cafépass1"),
                      (#"{"auth": {"accessToken": "acc-7f3e9b21"}}"#, "acc-7f3e9b21"),
                      (#"{"refresh_token": "ref-2c8d4a6e"}"#, "ref-2c8d4a6e"),
                      (#"{"client": {"secret": "sec-9a1b3c5d"}}"#, "sec-9a1b3c5d")])
    func aJSONSecretIsMaskedInEverySpellingWhereverItShows(body: String, secret: String) throws {
        // The answer echoes the body raw and inside a JSON string, as `{{request.body}}` does; a miss quotes it re-serialized.
        var echoed = ""
        JSONValue.writeEscaped(body, to: &echoed)
        let reserialized = (try? JSONParser.parse(body))?.serialized ?? body
        let entry = Self.entry(body: body, answer: #"{"raw": \#(body), "echo": "\#(echoed)"}"#,
                               misses: ["POST /login — body JSON \(reserialized) is not {}"])
        let text = try Self.shown(entry)
        for spelling in Self.spellings(secret) { #expect(!text.contains(spelling), "\(spelling) shown: \(text)") }
    }

    @Test func aShortPasswordIsMaskedInItsOwnFieldButAOneLetterValueIsNotMaskedEverywhere() throws {
        let entry = Self.entry(body: #"{"user": "ann", "password": "x9", "pin": 1}"#, answer: #"{"user": "ann", "password": "x9", "count": 19}"#)
        let text = try Self.shown(entry)
        #expect(!text.contains(#""x9""#), "\(text)")
        #expect(text.contains(#""password": "<redacted>""#), "\(text)")
        // Too short to be looked for everywhere: `19` stays 19.
        #expect(text.contains(#""count": 19"#), "\(text)")
    }

    @Test func aBearerTokenAndAQueryTokenAreMaskedInTheAnswerAndTheMisses() throws {
        let entry = Self.entry(body: "{}", headers: [.authorization: "Bearer tok-55aa77bb"], query: [QueryItem(name: "token", value: "q/tok+9")],
                               answer: #"{"seen": "tok-55aa77bb", "q": "q\/tok+9", "u": "q%2Ftok%2B9"}"#, misses: ["GET /x?token=q%2Ftok%2B9 — no route"])
        let text = try Self.shown(entry)
        for secret in ["tok-55aa77bb", "q/tok+9", #"q\/tok+9"#, "q%2Ftok%2B9"] { #expect(!text.contains(secret), "\(secret) shown: \(text)") }
    }

    @Test func aBasicPasswordIsMaskedDecoded() throws {
        let basic = Data("ann:open-sesame-1".utf8).base64EncodedString()
        let entry = Self.entry(body: "{}", headers: [.authorization: "Basic \(basic)"], answer: #"{"hello": "ann:open-sesame-1"}"#)
        let text = try Self.shown(entry)
        #expect(!text.contains("open-sesame-1") && !text.contains(basic), "\(text)")
    }

    @Test(arguments: ["accessToken", "access_token", "Access-Token", "refresh_token", "secret", "client_secret", "clientSecret",
                      "password", "passwd", "api_key", "apiKey", "token"])
    func secretNamesMatchInAnyCaseAndSeparator(name: String) {
        #expect(SecretNames.isSecretParameter(name))
    }

    @Test(arguments: ["page", "tokenType", "monkey", "user", "passage"])
    func otherNamesAreNotSecrets(name: String) {
        #expect(!SecretNames.isSecretParameter(name))
    }

    /// Text that is not JSON, or JSON cut short, is read as far as it goes and costs one pass.
    @Test func hostileTextIsLeftAsItIsAndReadInOnePass() {
        let masker = SecretMasker([("hunter22", "<redacted>")]).readingJSON()
        #expect(masker.mask(#"a "b\" c"#) == #"a "b\" c"#)
        #expect(masker.mask(#"{"password": "#) == #"{"password": "#)
        let many = String(repeating: #""a\u0041": "#, count: 20_000) + #""hunter22""#
        let started = Date()
        let masked = masker.mask(many)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(!masked.contains("hunter22"))
    }
}
