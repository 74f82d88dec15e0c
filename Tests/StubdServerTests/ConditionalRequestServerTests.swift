import Foundation
import Stubd
import StubdTestSupport
import Testing

/// Caching and ranges on the wire, with curl as the client (issue 58 item 6): a revalidation gets a
/// bodiless 304, a range a 206, and `curl -C -` resumes a cut download to the whole file.
@Suite struct ConditionalRequestServerTests {
    static let body = String((0..<5000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })

    func headers(_ output: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in output.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    @Test func aRevalidationGetsA304AndARangeA206() async throws {
        let stubs = try TempStubs(["download.bin": Self.body])
        try await withServer(stubs.url) { server in
            let url = server.baseURL.absoluteString + "/download.bin"
            let plain = try curl(["-D", "-", "-o", "/dev/null", url])
            let fields = headers(plain.output)
            let tag = try #require(fields["etag"], "no ETag in \(plain.output)")
            #expect(fields["accept-ranges"] == "bytes" && fields["last-modified"] != nil)

            let revalidated = try curl(["-i", "-H", "If-None-Match: \(tag)", url])
            #expect(revalidated.output.hasPrefix("HTTP/1.1 304"), "\(revalidated.output)")
            #expect(revalidated.output.hasSuffix("\r\n\r\n"), "a 304 has no content: \(revalidated.output)")
            let since = try curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "If-Modified-Since: \(fields["last-modified"]!)", url])
            #expect(since.output == "304")

            let part = try curl(["-D", "-", "-r", "0-99", url])
            #expect(part.output.hasPrefix("HTTP/1.1 206"))
            #expect(headers(part.output)["content-range"] == "bytes 0-99/5000")
            #expect(part.output.hasSuffix("\r\n\r\n" + String(Self.body.prefix(100))))
            let beyond = try curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-r", "6000-", url])
            #expect(beyond.output == "416")

            // A download cut after 1,234 bytes, resumed by curl (Range from the file's length).
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resume-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("download.bin")
            try Data(Self.body.utf8.prefix(1234)).write(to: file)
            let resumed = try curl(["-s", "-C", "-", "-o", file.path, "-w", "%{http_code} %{size_download}", url])
            #expect(resumed.output == "206 3766")
            #expect(try String(contentsOf: file, encoding: .utf8) == Self.body)

            // HEAD: the GET's headers, no body.
            let head = try curl(["-I", url])
            #expect(head.output.hasPrefix("HTTP/1.1 200") && headers(head.output)["content-length"] == "5000")
        }
    }
}
