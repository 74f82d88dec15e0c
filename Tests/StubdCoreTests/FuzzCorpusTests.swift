import Foundation
import Testing
@testable import StubdCore
import StubdTestSupport

/// Replays the fuzzers' corpus (Fuzz/Corpus, grown by scripts/fuzz), so every input that once
/// crashed a parser, or found new code in it, is run by every test run.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    static func inputs(_ folder: String) -> [URL] {
        let dir = corpus.appendingPathComponent(folder)
        return ((try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func theJSONCorpusParsesOrFailsCleanlyAndRoundTrips() throws {
        let files = FuzzCorpusTests.inputs("json")
        #expect(files.count >= 3)
        for file in files {
            guard let value = try? JSONParser.parse(try Data(contentsOf: file)) else { continue }
            #expect(try JSONParser.parse(value.serialized) == value, "\(file.lastPathComponent)")
        }
    }

    @Test func theManifestCorpusParsesOrFailsCleanly() throws {
        let files = FuzzCorpusTests.inputs("manifest")
        #expect(files.count >= 3)
        let root = FileManager.default.temporaryDirectory
        for file in files {
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            var manifest = ManifestParser(file: "stubd.yml", reader: StubFileReader(root: root))
            _ = manifest.parse(text)
            var runtime = ManifestParser(file: "stub", reader: StubFileReader(root: root))
            _ = runtime.parseRuntimeRoute(text, id: "s1")
        }
    }
}
