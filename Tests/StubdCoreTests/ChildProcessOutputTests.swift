import Foundation
import Testing
import StubdCoreTestSupport

/// The suite's `run` reads a program's standard output and standard error at once. It read them one
/// after the other, so a program that wrote more than a pipe holds (64 KiB) to standard error, as
/// `stubd openapi import` of Twilio's spec does with its warnings, blocked, and the test hung.
@Suite struct ChildProcessOutputTests {
    static let fillsStandardError = ["-c", "head -c 300000 /dev/zero | tr '\\\\0' w >&2; echo done"]

    @Test func aProgramThatFillsStandardErrorDoesNotHangIt() throws {
        // The watchdog's form first: on the old code it is killed after 20 s with nothing read,
        // a failure rather than a hang.
        let k = try run("/bin/sh", Self.fillsStandardError, killedAfter: 20)
        try #require(k.output == "done\n" && k.error.count == 300_000, "killed after \(k.seconds) s, exit \(k.status)")
        let r = try run("/bin/sh", Self.fillsStandardError)
        #expect(r.status == 0)
        #expect(r.output == "done\n")
        #expect(r.error.count == 300_000)
    }
}
