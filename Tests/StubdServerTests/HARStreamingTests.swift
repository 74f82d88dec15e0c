import Foundation
import StubdTestSupport
import Testing

/// `stubd import har` reads a HAR an entry at a time: a file over --max-size imports when each entry
/// fits, and the import's memory follows the largest entry, not the file (the 1 GB figure is in
/// Benchmarks/RESULTS.md, `python3 Benchmarks/har_import.py`).
@Suite struct HARStreamingTests {
    /// A HAR of `count` GETs to 127.0.0.1:8000, written a piece at a time; `body(i)` is entry i's
    /// answer, sent as base64 (binary) when `binary`.
    static func writeHAR(_ url: URL, count: Int, binary: Bool = false, path: (Int) -> String, body: (Int) -> Data) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        file.write(Data(#"{"log": {"version": "1.2", "creator": {"name": "HARStreamingTests", "version": "1"}, "entries": ["#.utf8))
        for i in 0..<count {
            let data = body(i)
            let text = binary ? data.base64EncodedString() : String(decoding: data, as: UTF8.self)
            var entry = """
                \(i == 0 ? "" : ",")
                  {"startedDateTime": "2026-11-27T08:00:00Z", "time": 1,
                   "request": {"method": "GET", "url": "http://127.0.0.1:8000\(path(i))", "httpVersion": "HTTP/1.1",
                               "headers": [{"name": "Accept", "value": "*/*"}], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
                   "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                                "headers": [{"name": "Content-Type", "value": "\(binary ? "image/png" : "application/json")"}], "cookies": [],
                                "content": {"size": \(data.count), "mimeType": "\(binary ? "image/png" : "application/json")", 
                """
            entry += binary ? #""encoding": "base64", "# : ""
            entry += #""text": "# + JSONString(text) + "},\n"
            entry += #"               "redirectURL": "", "headersSize": -1, "bodySize": \#(data.count)}, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}"#
            file.write(Data(entry.utf8))
        }
        file.write(Data("\n]}}\n".utf8))
    }

    static func JSONString(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]), as: UTF8.self).dropFirst().dropLast().description
    }

    @Test func aHAROverMaxSizeImportsWhenEachEntryFits() throws {
        let dir = try HARImportTests.freshFolder()
        let har = dir.deletingLastPathComponent().appendingPathComponent("big.har")
        // 48 answers of 40 KB: a 2 MB file, each entry well under 1 MiB.
        func body(_ i: Int) -> Data { Data(#"{"item": \#(i), "pad": "\#(String(repeating: "x", count: 40_000))"}"#.utf8) }
        try Self.writeHAR(har, count: 48, path: { "/items/\($0).json" }, body: body)
        #expect(try FileManager.default.attributesOfItem(atPath: har.path)[.size] as! Int > 2 << 20 - 200_000)
        let result = try HARImportTests.importHAR(har, dir, ["--max-size", "1"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("imported 48 of 48 requests"), "\(result.output)")
        let serve = try ServeProcess(["--stubs", dir.path])
        let answer = try curl([serve.baseURL.absoluteString + "/items/47.json"])
        #expect(answer.output == String(decoding: body(47), as: UTF8.self))
    }
}
