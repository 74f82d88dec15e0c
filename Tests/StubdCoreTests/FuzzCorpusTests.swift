import HTTPTypes
import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

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

    /// As FuzzTemplate checks each input: parsed as a JSON answer's and a text answer's, rendered
    /// with the input's request values within a cap, and a JSON template whose tags all stand in
    /// strings stays JSON whatever the values.
    @Test func theTemplateCorpusParsesAndRendersWithinItsCapAndEscapesInJSON() throws {
        let files = FuzzCorpusTests.inputs("template")
        #expect(files.count >= 5)
        var rendered = 0
        for file in files {
            let parts = try Data(contentsOf: file).split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            func part(_ i: Int) -> String { i < parts.count ? parts[i] : "" }
            let request = RequestHead(method: .post, path: "/items/\(part(4))", query: queryItems(["q": part(1)]),
                                      headers: fields(["X-Value": part(2)]), body: Data(part(3).utf8))
            func input(_ request: RequestHead) -> TemplateInput {
                TemplateInput(request: request, parameters: ["id": part(4)], now: Date(timeIntervalSince1970: 1_472_529_600), hits: 1, random: { 4 })
            }
            for json in [true, false] {
                guard let template = try? TemplateParser.parse(parts[0], parameters: ["id"], json: json) else { continue }
                var renderer = TemplateRenderer(input(request), limit: 1 << 20)
                let out = renderer.render(template)
                rendered += 1
                #expect(renderer.overLimit || out.utf8.count <= 1 << 20, "\(file.lastPathComponent)")
                let onlyStrings = template.nodes.allSatisfy { node in
                    if case .value(_, _, let inJSONString) = node { return inJSONString }
                    if case .text = node { return true }
                    return false
                }
                guard json, onlyStrings, !parts[0].contains("\\") else { continue }
                var empty = TemplateRenderer(input(RequestHead(method: .post, path: "/items/x")))
                guard (try? JSONParser.parse(empty.render(template))) != nil else { continue }
                #expect((try? JSONParser.parse(out)) != nil, "\(file.lastPathComponent): \(out)")
            }
        }
        #expect(rendered >= 4)
    }

    /// As FuzzWebSocketFrames checks each input (its first byte picks the size limit, the rest is a
    /// client's bytes): every refusal carries 1002, 1007 or 1009, and the messages and the refusal
    /// are the same whether the bytes come in one piece or one byte at a time.
    @Test func theWebSocketCorpusDecodesAlikeInAnyPiecesAndRefusesWithAValidCode() throws {
        let files = FuzzCorpusTests.inputs("websocket")
        #expect(files.count >= 5)
        func read(_ chunks: [ArraySlice<UInt8>], max: Int) -> (messages: [WebSocketMessage], refusal: WebSocketProtocolError?) {
            var decoder = WebSocketFrameDecoder(maxFrameBytes: max)
            var assembler = WebSocketMessageAssembler(maxMessageBytes: max)
            var messages: [WebSocketMessage] = []
            do {
                for chunk in chunks {
                    decoder.append(chunk)
                    while let frame = try decoder.next() {
                        if let message = try assembler.add(frame) { messages.append(message) }
                    }
                }
            } catch {
                return (messages, error)
            }
            return (messages, nil)
        }
        for file in files {
            let input = [UInt8](try Data(contentsOf: file))
            guard input.count >= 2 else { continue }
            let max = [0, 1, 2, 125, 126, 300, 65_535, 1 << 20][Int(input[0] & 7)]
            let stream = input[2...]
            let whole = read([stream], max: max)
            if let refusal = whole.refusal { #expect([1002, 1007, 1009].contains(refusal.code), "\(file.lastPathComponent)") }
            let bytewise = read(stream.indices.map { stream[$0...$0] }, max: max)
            #expect(bytewise.messages == whole.messages && bytewise.refusal == whole.refusal, "\(file.lastPathComponent)")
        }
    }

    /// As FuzzPatch checks each input (`[item, patch]`): the item set within 1 KB, patched as JSON
    /// Patch and as Merge Patch, is kept only within the limits and reads back equal.
    @Test func thePatchCorpusKeepsItemsWithinTheirLimits() throws {
        let files = FuzzCorpusTests.inputs("patch")
        #expect(files.count >= 5)
        let definition = ResourceDefinition(name: "items", pattern: "/items", maxItemBytes: 1_024)
        for file in files {
            guard case .array(let parts)? = try? JSONParser.parse(try Data(contentsOf: file)), parts.count == 2,
                  case .object(var fields) = parts[0] else { continue }
            fields["id"] = .number(1)
            let store = ResourceStore(definition)
            guard (try? store.replaceAll([.object(fields)])) != nil else { continue }
            _ = try? store.modify(parent: "", id: "1", stamp: [:]) { old throws(ResourceRefusal) in
                try JSONPatch.apply(parts[1], to: old, within: definition.itemLimits)
            }
            _ = try? store.modify(parent: "", id: "1", stamp: [:]) { old throws(ResourceRefusal) in JSONMergePatch.apply(parts[1], to: old) }
            for item in store.allItems() {
                #expect(definition.itemLimits.excess(of: item) == nil && item.serialized.utf8.count <= 1_024, "\(file.lastPathComponent)")
                #expect(try JSONParser.parse(Data(item.serialized.utf8)) == item, "\(file.lastPathComponent)")
            }
        }
    }
}
