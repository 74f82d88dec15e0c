import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import Testing
import TwilioMessagesAPI

/// Five operations of Twilio's Messages API (a form-encoded spec, from twilio/twilio-oai) through
/// their generated `Client`, against `stubd serve --spec --validate requests=strict` on the stubs
/// imported from the same fragment (issue 44 item 6).
@Suite struct TwilioMessagesClientTests {
    static let account = "AC" + String(repeating: "0123456789abcdef", count: 2)
    static let message = "SM" + String(repeating: "fedcba9876543210", count: 2)

    static func client(_ server: StubdProcess) -> TwilioMessagesAPI.Client {
        TwilioMessagesAPI.Client(serverURL: server.baseURL, transport: URLSessionTransport(),
                                 middlewares: [BasicAuthMiddleware(user: account, password: "test-auth-token")])
    }

    /// Each operation's imported answer decodes: nullable fields, Twilio's RFC 2822 dates (strings
    /// to the client), enums, a 204.
    @Test func everyOperationsDefaultAnswerDecodes() async throws {
        let server = try StubdProcess(spec: Spec.twilioMessages)
        defer { server.stop() }
        let client = Self.client(server)

        let sent = try await client.createMessage(
            path: .init(accountSid: Self.account),
            body: .urlEncodedForm(.init(to: "+15558675310", from: "+15017122661", body: "Hello from a generated client"))
        ).created.body.json
        #expect(sent.sid.map { $0.hasPrefix("SM") || $0.hasPrefix("MM") } ?? true)

        let page = try await client.listMessage(path: .init(accountSid: Self.account), query: .init(pageSize: 20)).ok.body.json
        #expect(page.messages != nil)

        _ = try await client.fetchMessage(path: .init(accountSid: Self.account, sid: Self.message)).ok.body.json
        _ = try await client.updateMessage(path: .init(accountSid: Self.account, sid: Self.message),
                                           body: .urlEncodedForm(.init(body: ""))).ok.body.json
        _ = try await client.deleteMessage(path: .init(accountSid: Self.account, sid: Self.message)).noContent
    }

    /// Everything the generated client can put in a request keeps to the spec, so strict mode
    /// serves it: a form body with every kind of field (an `Int` up to `Int.max`, a number, a date,
    /// booleans, enums, repeated keys for arrays), `PageSize` at both bounds as `Int64`, a
    /// `date-time` query parameter.
    @Test func strictModeTakesWhatTheClientSends() async throws {
        let server = try StubdProcess(spec: Spec.twilioMessages)
        defer { server.stop() }
        let client = Self.client(server)
        _ = try await client.createMessage(
            path: .init(accountSid: Self.account),
            body: .urlEncodedForm(.init(
                to: "+15558675310", statusCallback: "https://example.com/status",
                applicationSid: "AP" + String(repeating: "0", count: 32), maxPrice: 0.75, provideFeedback: true,
                attempt: Int.max, validityPeriod: 14_400, forceDelivery: false, contentRetention: .retain,
                addressRetention: .obfuscate, smartEncoded: true, persistentAction: ["mailto:a@example.com", "sms:+15558675310"],
                shortenUrls: false, scheduleType: .fixed, sendAt: Date(timeIntervalSince1970: 1_800_000_000),
                sendAsMms: false, from: "+15017122661", body: "Ahoy", mediaUrl: ["https://example.com/a.png", "https://example.com/b.png"]))
        ).created
        for size: Int64 in [1, 1000] {
            _ = try await client.listMessage(
                path: .init(accountSid: Self.account),
                query: .init(to: "+15558675310", dateSent: Date(timeIntervalSince1970: 1_800_000_000), pageSize: size, page: 0)
            ).ok
        }
        #expect(!server.log.contains("breaks the spec"), "\(server.log)")
    }

    /// The client checks no bound or pattern; stubd does, and Twilio declares no 422, so the
    /// refusal is `.undocumented(422)`.
    @Test func strictModeRefusesAParameterThatBreaksTheSpec() async throws {
        let server = try StubdProcess(spec: Spec.twilioMessages)
        defer { server.stop() }
        let client = Self.client(server)
        let tooBig = try await client.listMessage(path: .init(accountSid: Self.account), query: .init(pageSize: 1001))
        if case .undocumented(statusCode: 422, _) = tooBig {} else { Issue.record("PageSize 1001: \(tooBig)") }
        let notAnAccount = try await client.fetchMessage(path: .init(accountSid: "ACnot-an-account", sid: Self.message))
        if case .undocumented(statusCode: 422, _) = notAnAccount {} else { Issue.record("AccountSid ACnot-an-account: \(notAnAccount)") }
    }

    /// A form body that breaks the schema (an `ApplicationSid` off its pattern, which the client
    /// sends unchecked) is refused in strict mode as a JSON body would be.
    @Test func strictModeRefusesAFormBodyThatBreaksTheSpec() async throws {
        let server = try StubdProcess(spec: Spec.twilioMessages)
        defer { server.stop() }
        let output = try await Self.client(server).createMessage(
            path: .init(accountSid: Self.account),
            body: .urlEncodedForm(.init(to: "+15558675310", applicationSid: "APnot-an-application", body: "Ahoy")))
        if case .undocumented(statusCode: 422, _) = output {} else { Issue.record("expected .undocumented(422), got \(output)") }
    }
}
