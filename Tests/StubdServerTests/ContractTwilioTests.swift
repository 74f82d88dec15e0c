import Foundation
import StubdTestSupport
import Testing

/// Issue 39 items 1 and 3 on Twilio's own api_v2010 spec (Fixtures/Corpus, MIT licence): its
/// imported folder served by `stubd serve --spec … --validate requests=strict`, sent to by curl as a
/// Twilio client sends (a form body, HTTP Basic as account SID and token).
@Suite struct ContractTwilioTests {
    @Test func twiliosOwnSpecRefusesWhatTwilioWould() async throws {
        let spec = repositoryRoot.appendingPathComponent("Tests/StubdServerTests/Fixtures/Corpus/twilio-api-v2010/twilio_api_v2010.json")
        let stubs = try TempStubs([:])
        // Its ~140 warnings go to a file: `run` reads standard output to the end before standard
        // error, and a full stderr pipe would stop the import.
        let warnings = stubs.url.deletingLastPathComponent().appendingPathComponent("twilio-import-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: warnings) }
        let imported = try run("/bin/sh", ["-c", #""$0" openapi import "$1" --stubs "$2" 2>"$3""#, stubdBinary.path, spec.path, stubs.url.path, warnings.path])
        // 902, not 676: since `format` only describes (item 4), the list examples with relative URIs
        // under `format: uri` are kept, each a route of its own (`Prefer: example=readFull`).
        #expect(imported.status == 0 && imported.output.contains("902 routes"), "\(imported.output)")
        let serve = try ServeProcess(["--stubs", stubs.url.path, "--spec", spec.path, "--validate", "requests=strict"])
        let account = "AC0123456789abcdef0123456789abcdef"
        let url = serve.baseURL.absoluteString + "/2010-04-01/Accounts/\(account)/Messages.json"
        func send(_ arguments: [String]) throws -> (status: Int, body: String) {
            let r = try curl(["-w", "\n%{http_code}"] + arguments + [url])
            let lines = r.output.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }
        let auth = ["-u", "\(account):token"]

        let empty = try send(auth + ["-d", ""])
        #expect(empty.status == 422 && empty.body.contains("the required property 'To' is missing"), "\(empty)")
        let price = try send(auth + ["--data-urlencode", "To=+15558675310", "-d", "MaxPrice=notanumber"])
        #expect(price.status == 422 && price.body.contains(#""location":"body/MaxPrice""#), "\(price)")
        let json = try send(auth + ["-H", "Content-Type: application/json", "-d", #"{"To": "+15558675310"}"#])
        #expect(json.status == 415 && json.body.contains(#""accepted":["application/x-www-form-urlencoded"]"#), "\(json)")
        let anonymous = try send(["--data-urlencode", "To=+15558675310"])
        #expect(anonymous.status == 401 && anonymous.body.contains("'accountSid_authToken' (an Authorization: Basic header)"), "\(anonymous)")
        let good = try send(auth + ["--data-urlencode", "To=+15558675310", "--data-urlencode", "Body=Hello", "-d", "MaxPrice=0.5",
                                    "-d", "MediaUrl=https%3A%2F%2Fexample.com%2Fa.png", "-d", "MediaUrl=https%3A%2F%2Fexample.com%2Fb.png"])
        #expect(good.status == 201 && good.body.contains("\"sid\""), "\(good)")

        // Issue 44 item 2: PageSize (integer, int64, 1–1000) out of range is a bound, not "expected
        // an integer, got the string \"5000\"".
        func pageProblems(_ size: String) throws -> (status: Int, problems: [String]) {
            let r = try curl(["-w", "\n%{http_code}"] + auth + [url + "?PageSize=" + size])
            let lines = r.output.split(separator: "\n", omittingEmptySubsequences: false)
            let body = (try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8))) as? [String: Any]
            let problems = ((body?["validation"] as? [[String: Any]]) ?? []).map { "\($0["location"] ?? "") \($0["code"] ?? "")" }
            return (Int(lines.last ?? "") ?? 0, problems)
        }
        for size in ["1", "50", "1000"] {
            let r = try pageProblems(size)
            #expect(r.status == 200 && r.problems.isEmpty, "PageSize=\(size): \(r)")
        }
        for (size, code) in [("0", "minimum"), ("-1", "minimum"), ("1001", "maximum"), ("5000", "maximum"), ("9223372036854775808", "format")] {
            let r = try pageProblems(size)
            #expect(r.status == 422 && r.problems == ["query.PageSize \(code)"], "PageSize=\(size): \(r)")
        }
    }
}
