import Foundation
import HTTPTypes
@testable import StubdEngine

/// A template and the request values it renders with, NUL-separated: the text, then `?q=`,
/// `X-Value:`, the body and the route's `{id}`. The text is parsed as a JSON answer's and as a
/// text answer's: problems or a template, never a trap; rendering stays within its cap. And the
/// escaping holds: a JSON template whose tags all stand inside strings (no block, no `{{{`), and
/// that is JSON with every value empty, is JSON whatever the request sends.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: bytes, count: size).split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let text = parts[0]
    func part(_ i: Int) -> String { i < parts.count ? parts[i] : "" }
    let request = RequestHead(method: .post, path: "/items/\(part(4))", query: [QueryItem(name: "q", value: part(1))],
                              headers: HTTPFields([HTTPField(name: HTTPField.Name("X-Value")!, value: part(2))]), body: Data(part(3).utf8))
    let limit = 1 << 20
    for json in [true, false] {
        guard let template = try? TemplateParser.parse(text, parameters: ["id"], json: json) else { continue }
        var renderer = TemplateRenderer(input(request, id: part(4)), limit: limit)
        let out = renderer.render(template)
        // Past the cap by at most the last value written, and only when it says so.
        precondition(renderer.overLimit || out.utf8.count <= limit, "rendered \(out.utf8.count) bytes under a cap of \(limit)")
        guard json, !text.contains("\\"), template.nodes.allSatisfy({ node in
            switch node {
            case .text: true
            case .value(_, _, let inJSONString): inJSONString
            case .block: false
            }
        }) else { continue }
        var empty = TemplateRenderer(input(RequestHead(method: .post, path: "/items/x"), id: ""))
        guard (try? JSONParser.parse(empty.render(template))) != nil else { continue }
        precondition((try? JSONParser.parse(out)) != nil, "a value left its JSON string: \(out)")
    }
    return 0
}

private func input(_ request: RequestHead, id: String) -> TemplateInput {
    TemplateInput(request: request, parameters: ["id": id], now: Date(timeIntervalSince1970: 1_472_529_600), hits: 1, random: { 4 })
}

/// SwiftPM links an executable's entry point as `FuzzTemplate_main`; libFuzzer's driver takes it from here.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzTemplate_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzTemplate)
}
