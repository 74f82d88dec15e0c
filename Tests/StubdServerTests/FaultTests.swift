import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdClient
import StubdTestSupport
import Testing

@Suite struct FaultTests {
    /// curl's exit codes name what the client saw: 56 reset, 52 empty reply, 18 partial file, 28 timeout.
    @Test(arguments: [("/reset", Int32(56)), ("/empty", 52), ("/truncated", 18), ("/hang", 28)])
    func curlSeesEachFaultForWhatItIs(path: String, exit: Int32) throws {
        let server = try StubServer(stubs: try TempStubs(behaviourStubs).url)
        defer { server.stopSynchronously() }
        let r = try run("/usr/bin/curl", ["-s", "-o", "/dev/null", "--max-time", "1", server.baseURL.absoluteString + path])
        #expect(r.status == exit)
    }

    @Test func malformedJSONIs200WithAJSONTypeAndABodyThatDoesNotParse() async throws {
        try await withServer(try TempStubs(behaviourStubs).url) { server in
            let r = try await get(server.baseURL, "/malformed")
            #expect(r.status == 200)
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            #expect((try? JSONSerialization.jsonObject(with: r.body)) == nil)
        }
    }

    /// What URLSession on Linux reports for each fault (the README's table comes from here).
    ///
    /// corelibs URLSession now and then reports `.timedOut` within milliseconds for a reset or a
    /// truncated body (7 of 25 runs of the four faults failed on that when each was asked once; up
    /// to 4 of 5 when sessions are made back to back; once, under AddressSanitizer in CI, 5 of 5 for
    /// an empty response). So each fault is asked five times, and up to fifteen until the documented
    /// code has come: it must come at least once, and nothing but `.timedOut` otherwise.
    @Test(arguments: [("/reset", URLError.Code.networkConnectionLost), ("/empty", .badServerResponse),
                      ("/truncated", .unknown), ("/hang", .timedOut)])
    func urlSessionReports(path: String, code: URLError.Code) async throws {
        try await withServer(try TempStubs(behaviourStubs).url) { server in
            var codes: [URLError.Code] = []
            for attempt in 0..<15 {
                if attempt >= 5, codes.contains(code) { break }
                let configuration = URLSessionConfiguration.ephemeral
                configuration.timeoutIntervalForRequest = 0.5
                let session = URLSession(configuration: configuration)
                defer { session.invalidateAndCancel() }
                do {
                    _ = try await http(URL(string: server.baseURL.absoluteString + path)!, session: session)
                    Issue.record("\(path) answered")
                } catch let error as URLError {
                    codes.append(error.code)
                }
            }
            #expect(codes.contains(code), "\(path): \(codes.map(\.rawValue))")
            #expect(codes.allSatisfy { $0 == code || $0 == .timedOut }, "\(path): \(codes.map(\.rawValue))")
        }
    }

    @Test func aRefusedConnectionIsCannotConnectToHost() async throws {
        let server = try await StubServer.start(stubs: plainStubs)
        let url = URL(string: server.baseURL.absoluteString + "/plain/payload.json")!
        await server.stop()
        do {
            _ = try await http(url)
            Issue.record("answered after stop")
        } catch let error as URLError {
            #expect(error.code == .cannotConnectToHost)
        }
    }
}
