import Foundation
import StubdTestSupport
import Testing

/// `stubd import har` on HARs it must not take as they are: several hosts (`--host` picks one) and
/// broken files, which write nothing. No server started; split from HARImportTests, which serves
/// what the import wrote.
@Suite struct HARImportFolderTests {
    @Test func aHARWithSeveralHostsNeedsHostAndHostPicksOne() throws {
        let dir = try HARImportTests.freshFolder()
        let refused = try HARImportTests.importHAR(HARImportTests.twoHosts, dir)
        #expect(refused.status == 1)
        #expect(refused.error.contains("holds requests to 2 hosts: api.weather.test (2), cdn.assets.test (1)"), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: dir.path), "nothing written")

        let one = try HARImportTests.importHAR(HARImportTests.twoHosts, dir, ["--host", "cdn.assets.test"])
        #expect(one.status == 0, "\(one.error)")
        #expect(try HARImportTests.contents(dir).keys.sorted() == ["logo.png"])
        #expect(one.output.contains("not imported: 2 requests to other hosts (api.weather.test 2)"), "\(one.output)")
    }

    /// A file that does not read stops the import before a byte is written, naming where and why.
    @Test(arguments: [
        ("truncated", "not JSON: the JSON ends inside /log/entries/"),
        ("base64", "/log/entries/5/response/content/text: says encoding base64 but is not base64"),
        ("dots", "/log/entries/2/request/url: the path of 'http://127.0.0.1:"),
        ("encodedDots", "holds a '..' segment"),
        ("large", "/log/entries/5 is over the 1 MiB --max-size"),
    ])
    func aBrokenHARWritesNothing(_ kind: String, _ message: String) throws {
        var text = try String(contentsOf: HARImportTests.forward, encoding: .utf8)
        var extra: [String] = []
        switch kind {
        case "truncated": text = String(text.prefix(text.count / 2))
        case "base64": text = text.replacingOccurrences(of: #""text": "iVBOR"#, with: #""text": "not base64! iVBOR"#)
        case "dots": text = text.replacingOccurrences(of: "/api/items.json", with: "/api/../../../etc/passwd")
        case "encodedDots": text = text.replacingOccurrences(of: "/api/items.json", with: "/api/%2e%2e/%2E%2E/etc/passwd")
        default:
            // One entry over the cap: a HAR is read an entry at a time, so --max-size caps an entry.
            text = text.replacingOccurrences(of: #""text": "iVBOR"#, with: #""text": ""# + String(repeating: "A", count: 1 << 20) + "iVBOR")
            extra = ["--max-size", "1"]
        }
        let folder = try TempStubs(["hello.json": #"{"hello":"world"}"#])
        let har = folder.url.appendingPathComponent(".broken.har")
        try Data(text.utf8).write(to: har)
        let before = try HARImportTests.contents(folder.url)
        let result = try HARImportTests.importHAR(har, folder.url, extra)
        #expect(result.status == 1)
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.error.contains("nothing written"), "\(result.error)")
        #expect(try HARImportTests.contents(folder.url) == before, "the folder changed")
    }
}
