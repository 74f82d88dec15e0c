import Foundation
import StubdProtocol
import StubdTestSupport
import Testing

/// A SIGTERM sent the moment `stubd serve` has printed its first line stops it: the signal is caught
/// from before that line. It was set up only after the start-up notices, and a SIGTERM in between
/// was ignored and lost: a test waited for the process forever (CI, this stop).
@Suite struct SigtermRightAwayTests {
    @Test func aSigtermRightAfterTheFirstLineStopsServe() throws {
        let stubs = try TempStubs(["ok.json": "{}"])
        for attempt in 1...10 {
            let process = Process()
            process.executableURL = stubdBinary
            process.arguments = ["serve", "--port", "0", "--no-watch", "--stubs", stubs.url.path]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = out
            try process.run()
            let first = String(decoding: out.fileHandleForReading.firstLine(thenDrainInto: { _ in }), as: UTF8.self)
            #expect(first.hasPrefix("stubd listening on http://"), "\(first)")
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            let stopped = !process.isRunning
            if !stopped { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
            #expect(stopped, "attempt \(attempt): stubd serve ran on after SIGTERM")
            #expect(process.terminationStatus == 0 || !stopped, "attempt \(attempt): exit \(process.terminationStatus)")
            if !stopped { return }
        }
    }
}
