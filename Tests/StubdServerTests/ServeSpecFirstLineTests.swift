import Foundation
import StubdProtocol
import StubdTestSupport
import Testing

/// `stubd serve --spec`: scripts read the port from the first line it prints (scripts/test's compose
/// step, `head -1`), so the spec's notices on the catalog must come after it.
@Suite struct ServeSpecFirstLineTests {
    @Test func theListeningLineComesBeforeTheSpecsNotices() throws {
        let spec = try TempStubs(ContractCheckTests.spec30)
        // `extra.json` matches no operation and the forecast has no stub: two notices at start.
        let stubs = try TempStubs(["data/2.5/weather.json": ContractCheckTests.goodAnswer, "extra.json": "{}"])
        let process = Process()
        process.executableURL = stubdBinary
        process.arguments = ["serve", "--port", "0", "--no-watch", "--stubs", stubs.url.path,
                             "--spec", spec.url.appendingPathComponent("openapi.yaml").path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let log = Locked(Data())
        let first = String(decoding: out.fileHandleForReading.firstLine(thenDrainInto: { piece in log.withLock { $0.append(piece) } }),
                           as: UTF8.self)
        #expect(first.hasPrefix("stubd listening on http://"), "\(first)")
        // The notices are still said, after it.
        let deadline = Date().addingTimeInterval(10)
        while !log.withLock({ String(decoding: $0, as: UTF8.self) }).contains("matches no operation"), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let text = log.withLock { String(decoding: $0, as: UTF8.self) }
        #expect(text.contains("GET /extra") && text.contains("matches no operation"), "\(text)")
    }
}
