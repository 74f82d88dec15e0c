import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 58 item 2: `{"dt_txt": "2017-01-30 18:00:00"}` (OpenWeatherMap's forecast) under
/// `format: date-time` passed `check --spec`, even with `--swift-compatible`, though
/// swift-openapi-generator's client and `JSONDecoder`'s `.iso8601` both fail on it. A date-time and
/// a date are held to their format by default; `--formats annotate-all` describes them again.
@Suite struct DateFormatByDefaultTests {
    static let spec = """
        openapi: 3.0.3
        info: {title: forecast, version: "1"}
        paths:
          /forecast:
            get:
              responses:
                "200":
                  description: a forecast
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          dt_txt: {type: string, format: date-time}
                          day: {type: string, format: date}
                          link: {type: string, format: uri}
        """

    private func check(_ body: String, formats: SchemaFormatMode = .annotate) throws -> StubContractCheck {
        let spec = try TempStubs(["openapi.yaml": Self.spec])
        let contract = try APIContract.load(spec: spec.url.appendingPathComponent("openapi.yaml"), formats: formats)
        let stubs = try TempStubs(["forecast.json": body])
        return StubContractCheck(catalog: try stubs.load(), contract: contract)
    }

    @Test func aDateTimeWithASpaceAndNoOffsetBreaksTheSpecByDefaultNamingFilePointerAndWhy() throws {
        let check = try check(#"{"dt_txt": "2017-01-30 18:00:00"}"#)
        #expect(check.problems.count == 1, "\(check.problems)")
        let problem = try #require(check.problems.first).description
        #expect(problem.hasPrefix("forecast.json:1:"), "\(problem)")
        #expect(problem.contains("/dt_txt: expected an RFC 3339 date-time"), "\(problem)")
        #expect(problem.contains("a Swift client decodes a date-time into a Date and fails on this"), "\(problem)")
        #expect(problem.contains("--formats annotate-all"), "\(problem)")
    }

    @Test func aValidDateTimeAndDatePassAndOtherFormatsStillOnlyDescribe() throws {
        let check = try check(#"{"dt_txt": "2017-01-30T18:00:00Z", "day": "2017-01-30", "link": "/relative"}"#)
        #expect(check.problems.isEmpty, "\(check.problems)")
        #expect(check.swiftWarnings.isEmpty, "\(check.swiftWarnings)")
    }

    @Test func aDateThatIsNoDateBreaksTheSpecByDefault() throws {
        let check = try check(#"{"day": "30/01/2017"}"#)
        #expect(check.problems.count == 1 && check.problems.first?.description.contains("/day: expected an RFC 3339 full-date") == true,
                "\(check.problems)")
    }

    /// `--formats annotate-all` lets it pass the spec, and `--swift-compatible` (which makes
    /// `swiftWarnings` problems) still refuses it: `.iso8601` cannot decode it whatever the mode.
    @Test func annotateAllDescribesItButASwiftClientStillCannotDecodeIt() throws {
        let check = try check(#"{"dt_txt": "2017-01-30 18:00:00"}"#, formats: .annotateAll)
        #expect(check.problems.isEmpty, "\(check.problems)")
        #expect(check.swiftWarnings.count == 1, "\(check.swiftWarnings)")
        let warning = try #require(check.swiftWarnings.first).description
        #expect(warning.contains(#"/dt_txt: "2017-01-30 18:00:00" is not an RFC 3339 date-time, so a Swift client cannot decode it"#), "\(warning)")
    }

    @Test func anImportedExampleWithSuchADateTimeIsLeftOutForASampledBody() throws {
        let spec = try TempStubs(["openapi.yaml": Self.spec.replacingOccurrences(
            of: "\n                  link: {type: string, format: uri}",
            with: "\n                  link: {type: string, format: uri}\n              example: {dt_txt: \"2017-01-30 18:00:00\"}")])
        let document = try OpenAPIDocument.load(spec.url.appendingPathComponent("openapi.yaml"))
        let output = OpenAPIImporter(spec: document, specName: "openapi.yaml").run()
        #expect(output.warnings.contains { $0.contains("example breaks the spec's own schema, left out") && $0.contains("/dt_txt") }, "\(output.warnings)")
        let written = try #require(output.files.first { $0.key.hasPrefix("__files/") }?.value)
        let body = try JSONParser.parse(written)
        guard case .object(let members) = body, case .string(let dt)? = members["dt_txt"] else { return }
        #expect(SchemaFormat.dateTime.accepts(.string(dt)), "\(dt)")
    }
}
