import Foundation
import StubdTestSupport
import Testing

/// Issue 44 item 5: `stubd check --spec` passed date-times a Swift client cannot decode
/// (`2026-01-26T19:00:00.123Z`, `2026-01-26t21:00:00z`); they are warnings at their place in the
/// stub, and `--swift-compatible` makes them errors.
@Suite struct SwiftCompatibleCheckTests {
    static let stub = """
        {
          "name": "London",
          "dt": "2026-01-26T19:00:00.123Z",
          "main": {"temp": 11.5},
          "next": {"name": "Paris", "dt": "2026-01-26t21:00:00z", "main": {"temp": 14}}
        }
        """

    @Test func aDateTimeSwiftCannotDecodeIsAWarningAtItsPlace() throws {
        let spec = try TempStubs(ContractCheckTests.spec30)
        let stubs = try TempStubs(["data/2.5/weather.json": Self.stub])
        let specPath = spec.url.appendingPathComponent("openapi.yaml").path
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", specPath])
        #expect(r.status == 0, "\(r.error)")
        #expect(r.output.contains("warning: data/2.5/weather.json:3:9: GET /data/2.5/weather 200: /dt: the date-time \"2026-01-26T19:00:00.123Z\" keeps to RFC 3339 but a Swift client cannot decode it: fractional seconds"), "\(r.output)")
        #expect(r.output.contains("warning: data/2.5/weather.json:5:35: GET /data/2.5/weather 200: /next/dt: the date-time \"2026-01-26t21:00:00z\""), "\(r.output)")
        #expect(r.output.contains("lower-case 't'"), "\(r.output)")

        let strict = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", specPath, "--swift-compatible"])
        #expect(strict.status == 1, "\(strict.output)")
        #expect(strict.error.contains("2 problems"), "\(strict.error)")
        #expect(strict.error.contains("data/2.5/weather.json:3:9: GET /data/2.5/weather 200: /dt:"), "\(strict.error)")

        try stubs.write("data/2.5/weather.json", Self.stub.replacingOccurrences(of: ".123Z", with: "Z").replacingOccurrences(of: "t21:00:00z", with: "T21:00:00Z"))
        let fixed = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", specPath, "--swift-compatible"])
        #expect(fixed.status == 0, "\(fixed.error)")
        #expect(!fixed.output.contains("warning:"), "\(fixed.output)")
    }

    /// Issue 58 item 2: OpenWeatherMap's `"dt_txt": "2017-01-30 18:00:00"` under `format: date-time`
    /// passed, "every answer keeps to" the spec, with and without `--swift-compatible`.
    @Test func aDateTimeThatIsNoRFC3339DateTimeFailsByDefaultAndSaysWhyAndHowToAllowIt() throws {
        let spec = try TempStubs(ContractCheckTests.spec30)
        let stubs = try TempStubs(["data/2.5/weather.json": #"{"name": "London", "dt": "2017-01-30 18:00:00", "main": {"temp": 11.5}}"#])
        let specPath = spec.url.appendingPathComponent("openapi.yaml").path
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", specPath])
        #expect(r.status == 1, "\(r.output)")
        #expect(r.error.contains("data/2.5/weather.json:1:26: GET /data/2.5/weather 200: /dt: expected an RFC 3339 date-time such as 2024-05-01T12:00:00Z, "
                                 + "got the string \"2017-01-30 18:00:00\": a Swift client decodes a date-time into a Date and fails on this"), "\(r.error)")
        #expect(r.error.contains("`--formats annotate-all` takes it as a description"), "\(r.error)")
        #expect(!r.output.contains("every answer keeps to"), "\(r.output)")

        // Read as a description, it passes the spec, and the last line says a Swift client cannot decode it.
        let described = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", specPath, "--formats", "annotate-all"])
        #expect(described.status == 0, "\(described.error)")
        #expect(described.output.contains("warning: data/2.5/weather.json:1:26: GET /data/2.5/weather 200: /dt: \"2017-01-30 18:00:00\" is not an RFC 3339 date-time"),
                "\(described.output)")
        #expect(described.output.contains("with its string formats read as descriptions; 1 date-time above a Swift client cannot decode"), "\(described.output)")
        let strict = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", specPath, "--formats", "annotate-all", "--swift-compatible"])
        #expect(strict.status == 1, "\(strict.output)")

        try stubs.write("data/2.5/weather.json", #"{"name": "London", "dt": "2017-01-30T18:00:00Z", "main": {"temp": 11.5}}"#)
        let fixed = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path, "--spec", specPath, "--swift-compatible"])
        #expect(fixed.status == 0, "\(fixed.error)")
        #expect(fixed.output.contains("every answer keeps to openapi.yaml"), "\(fixed.output)")
    }
}
