import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

@Suite struct QuotaLedgerTests {
    func quota(_ limits: [String], algorithm: QuotaAlgorithm = .fixed, profile: QuotaProfile = .ietf) -> QuotaDefinition {
        QuotaDefinition(name: "weather", selectors: [], key: .global, limits: limits.compactMap(QuotaLimit.init),
                        algorithm: algorithm, exceeded: .profile(profile), advertise: .ietf,
                        timeZone: TimeZone(identifier: "UTC")!, source: "test")
    }

    /// 2016-08-30T00:00:20Z: 20 s into a minute.
    let start = Date(timeIntervalSince1970: 1_472_515_220)

    @Test func theEleventhCallInAMinuteIsRejectedUntilTheMinutePasses() {
        let ledger = QuotaLedger(quota: quota(["10/minute", "500/day"]))
        for i in 0..<10 {
            let v = ledger.consume(key: "k", at: start.addingTimeInterval(Double(i)))
            #expect(v.accepted)
        }
        let eleventh = ledger.consume(key: "k", at: start.addingTimeInterval(10))
        #expect(!eleventh.accepted)
        #expect(eleventh.violated.map(\.limit.name) == ["minute"])
        // 30 s past the minute: 30 s until the next one.
        #expect(eleventh.retryAfter == 30)
        #expect(ledger.consume(key: "k", at: start.addingTimeInterval(40)).accepted)
    }

    @Test func rejectedCallsDoNotConsume() {
        let ledger = QuotaLedger(quota: quota(["2/minute", "3/day"]))
        #expect(ledger.consume(key: "k", at: start).accepted)
        #expect(ledger.consume(key: "k", at: start).accepted)
        for _ in 0..<5 { #expect(!ledger.consume(key: "k", at: start).accepted) }
        // The day limit saw 2, not 7: one more fits after the minute.
        #expect(ledger.consume(key: "k", at: start.addingTimeInterval(60)).accepted)
        #expect(!ledger.consume(key: "k", at: start.addingTimeInterval(120)).accepted)
    }

    @Test func keysAreCountedApart() {
        let ledger = QuotaLedger(quota: quota(["1/minute"]))
        #expect(ledger.consume(key: "a", at: start).accepted)
        #expect(ledger.consume(key: "b", at: start).accepted)
        #expect(!ledger.consume(key: "a", at: start).accepted)
    }

    @Test func slidingWindowsFreeRoomWhenTheOldestCallLeaves() {
        let ledger = QuotaLedger(quota: quota(["2/minute"], algorithm: .sliding))
        #expect(ledger.consume(key: "k", at: start).accepted)
        #expect(ledger.consume(key: "k", at: start.addingTimeInterval(30)).accepted)
        let third = ledger.consume(key: "k", at: start.addingTimeInterval(45))
        #expect(!third.accepted)
        #expect(third.retryAfter == 15)
        #expect(ledger.consume(key: "k", at: start.addingTimeInterval(61)).accepted)
    }

    @Test func tokenBucketsRefillContinuously() {
        let ledger = QuotaLedger(quota: quota(["2/second"], algorithm: .tokenBucket))
        #expect(ledger.consume(key: "k", at: start).accepted)
        #expect(ledger.consume(key: "k", at: start).accepted)
        #expect(!ledger.consume(key: "k", at: start).accepted)
        #expect(ledger.consume(key: "k", at: start.addingTimeInterval(0.5)).accepted)
    }

    @Test func prefilledUsageRejectsTheNextCall() throws {
        let ledger = QuotaLedger(quota: quota(["10/minute", "500/day"]))
        #expect(try ledger.setUsed(key: "k", used: ["day": 500], at: start).isEmpty)
        let v = ledger.consume(key: "k", at: start)
        #expect(!v.accepted)
        #expect(v.violated.map(\.limit.name) == ["day"])
        #expect(try ledger.setUsed(key: "k", used: ["week": 1], at: start) == ["week"])
    }

    /// Through the general path (`consume`) and the request path's fixed-window shortcut (`charge`).
    @Test(arguments: [false, true]) func exactUnderConcurrency(shortcut: Bool) async {
        let ledger = QuotaLedger(quota: quota(["500/day"]))
        let accepted = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    (0..<20).reduce(0) { n, _ in
                        n + ((shortcut ? try! ledger.charge(key: "k", at: start).accepted : ledger.consume(key: "k", at: start).accepted) ? 1 : 0)
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(accepted == 500)
    }

    @Test func ietfHeadersNameThePolicyNearestToRunningOut() throws {
        let weather = quota(["10/minute", "500/day"])
        let ledger = QuotaLedger(quota: weather)
        for _ in 0..<7 { _ = try ledger.charge(key: "k", at: start) }
        let charge = try ledger.charge(key: "k", at: start)
        #expect(charge.accepted && charge.verdict == nil)
        let headers = QuotaAnswers.ietf(weather, charge.tightest.map { LimitStatus($0, of: weather) })
        #expect(headers.first { $0.name.rawName == "RateLimit-Policy" }?.value == #""minute";q=10;w=60, "day";q=500;w=86400"#)
        #expect(headers.first { $0.name.rawName == "RateLimit" }?.value == #""minute";r=2;t=40"#)
    }

    /// `charge` settles fixed windows on plain numbers (`chargeFixed`); `consume` takes the general
    /// path. Driven through the same times, across minutes, hours, midnights and a change of daylight
    /// saving time, both must agree on every request.
    @Test(arguments: ["UTC", "America/New_York", "Asia/Kolkata"])
    func theFixedWindowShortcutAgreesWithTheGeneralPath(zone: String) throws {
        let definition = QuotaDefinition(name: "weather", selectors: [], key: .global,
                                         limits: ["4/minute", "9/hour", "30/day", "3/15minutes"].compactMap(QuotaLimit.init),
                                         algorithm: .fixed, exceeded: .profile(.ietf), advertise: .ietf,
                                         timeZone: try #require(TimeZone(identifier: zone)), source: "test")
        let (shortcut, general) = (QuotaLedger(quota: definition), QuotaLedger(quota: definition))
        // 2016-11-06T03:58:00Z, two hours before New York leaves daylight saving time.
        var t = 1_478_404_680.0
        var generator = SplitMix(seed: 7)
        var accepted = 0
        for step in 0..<3000 {
            let date = Date(timeIntervalSince1970: t)
            let charge = try shortcut.charge(key: "k", at: date)
            let verdict = general.consume(key: "k", at: date)
            try #require(charge.accepted == verdict.accepted, "step \(step) at \(date)")
            if charge.accepted {
                accepted += 1
                let expected = try #require(verdict.tightest)
                let got = LimitStatus(try #require(charge.tightest), of: definition)
                try #require((got.limit, got.remaining, got.resetsIn, got.used) == (expected.limit, expected.remaining, expected.resetsIn, expected.used),
                             "step \(step) at \(date)")
            }
            // Mostly bursts within a second, sometimes jumps of minutes or hours.
            t += [0, 0.25, 1.5, 17, 61, 400, 3599, 3601][Int(generator.next() % 8)]
        }
        #expect(accepted > 300 && accepted < 2900, "the sequence should hit and leave the limits: \(accepted) accepted")
    }

    @Test(arguments: [0, 7, 9, 10, 42, 99, 100, 101, 999, 1000, 86_399, 994_999_999, 1_000_000_000, Int.max])
    func theRateLimitValueSpellsEveryNumber(n: Int) {
        let limit = QuotaLimit("5/15minutes")!
        let value = QuotaAnswers.rateLimitItem(LimitStatus(limit: limit, remaining: n, resetsIn: n / 3, used: 0))
        #expect(value == "\"15minutes\";r=\(n);t=\(n / 3)")
    }

    @Test func profilesMimicTheirAPIs() throws {
        for (profile, status) in [(QuotaProfile.ietf, 429), (.openweathermap, 429), (.github, 403), (.wunderground, 200)] {
            let ledger = QuotaLedger(quota: quota(["1/minute"], profile: profile))
            _ = ledger.consume(key: "k", at: start)
            let answer = QuotaAnswers.rejection(ledger.consume(key: "k", at: start))
            #expect(answer.status.code == status, "\(profile)")
            let body = try JSONParser.parse(answer.body)
            switch profile {
            case .ietf:
                #expect(answer.headers.contains { $0.name.rawName == "Retry-After" && $0.value == "40" })
                #expect(answer.headers.contains { $0.name.rawName == "Content-Type" && $0.value == "application/problem+json" })
                #expect(body.contains(.object(["violated-policies": .array([.string("minute")]), "status": .number(429)])))
            case .openweathermap:
                #expect(body.contains(.object(["cod": .number(429)])))
                #expect(!answer.headers.contains { $0.name.rawName == "Retry-After" })
            case .github:
                #expect(answer.headers.contains { $0.name.rawName == "x-ratelimit-remaining" && $0.value == "0" })
            case .wunderground:
                guard case .object(let m) = body, case .object(let r)? = m["response"] else { Issue.record("no envelope"); continue }
                #expect(r["error"] != nil)
            }
        }
    }
}
