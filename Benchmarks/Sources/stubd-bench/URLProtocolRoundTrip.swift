import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdInProcess

/// The floor of a `URLProtocol` round trip: a protocol that answers every request with the same
/// bytes (the benchmark's payload, read once), doing nothing else. What URLSession itself costs per
/// request, without the engine.
final class FixedBytesProtocol: URLProtocol {
    nonisolated(unsafe) static var body = Data()

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
                                       headerFields: ["Content-Type": "application/json", "Content-Length": String(Self.body.count)])!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Self.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

/// Issue 60's figures: one GET's round trip, sequential, through (1) the bare protocol above (the same bytes), (2) the
/// engine's in-process front (`InProcessStubs`, no socket), (3) the in-process socket server with a
/// keep-alive `URLSession`; microseconds per request, each the median of `rounds` batches of
/// `requests`, the three interleaved batch by batch so a busy moment hits all three alike.
enum URLProtocolRoundTrip {
    static func run(stubs: URL, requests: Int = 500, rounds: Int = 7) async throws {
        let path = "bench/payload.json"
        FixedBytesProtocol.body = try Data(contentsOf: stubs.appendingPathComponent(path))
        let size = FixedBytesProtocol.body.count
        let floorConfiguration = URLSessionConfiguration.ephemeral
        floorConfiguration.protocolClasses = [FixedBytesProtocol.self]
        let floor = URLSession(configuration: floorConfiguration)
        let engine = try InProcessStubs.load(stubs: stubs)
        let server = try await StubServer.start(stubs: stubs)
        let network = URLSession(configuration: .ephemeral)
        let ways: [(name: String, session: URLSession, url: URL)] = [
            ("bare URLProtocol (fixed 1 KB, the floor)", floor, URL(string: "http://floor.invalid/\(path)")!),
            ("the engine through URLProtocol, no socket", engine.urlSession, URL(string: "http://stubs.invalid/\(path)")!),
            ("the in-process socket server, keep-alive", network, server.baseURL.appendingPathComponent(path)),
        ]
        var times = Array(repeating: [Double](), count: ways.count)
        for way in ways { _ = try await way.session.data(from: way.url) }
        for _ in 0..<rounds {
            for (i, way) in ways.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<requests {
                    let (data, response) = try await way.session.data(from: way.url)
                    precondition((response as? HTTPURLResponse)?.statusCode == 200 && data.count == size, "\(way.name): \(response)")
                }
                times[i].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(requests))
            }
        }
        let floorMedian = median(times[0])
        for (i, way) in ways.enumerated() {
            print(String(format: "round trip, %@: median %.1f µs per request (%.2f× the floor; %d rounds of %d)",
                         way.name, median(times[i]), median(times[i]) / floorMedian, rounds, requests))
        }
        engine.close()
        await server.stop()
    }
}
