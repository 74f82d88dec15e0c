import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// `stubd drift` refusing what it is given before it sends anything: a flag out of range, an
/// ignore rule it cannot read. No API or server started; split from DriftTests.
@Suite struct DriftFlagTests {
    @Test func flagsOutOfRangeAreRefusedNamingTheFlag() throws {
        let stubs = try TempStubs([:])
        for (flags, words) in [(["--rate", "1e-300"], "--rate must be from 0.01"), (["--timeout", "1e300"], "--timeout must be more than 0"),
                               (["--format", "xml"], "The value 'xml' is invalid for '--format <format>'. Please provide one of 'text' and 'json'."), (["--secret", "a/b=1"], "--secret NAME must be a plain identifier")] {
            let r = try run(stubdBinary.path, ["drift", "--target", "http://127.0.0.1:1", "--stubs", stubs.url.path] + flags)
            #expect(r.status != 0 && r.status != 1 && r.status != 2, "\(flags): \(r.status)")
            #expect(r.error.contains(words), "\(flags): \(r.error)")
        }
    }

    @Test func aBadIgnoreRuleIsALoadErrorAtItsPlace() throws {
        let stubs = try TempStubs(["stubd.yml": "drift:\n  ignore: [\"/ok\", \"list/*/dt\"]\n  ignroe: []\n"])
        let r = try run(stubdBinary.path, ["check", "--stubs", stubs.url.path])
        #expect(r.status == 1)
        #expect(r.error.contains("stubd.yml:2:19: drift.ignore: 'list/*/dt' is not a JSON pointer"), "\(r.error)")
        #expect(r.error.contains("stubd.yml:3:3: unknown key 'ignroe' in drift (did you mean 'ignore'?)"), "\(r.error)")
    }
}
