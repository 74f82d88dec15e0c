import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import Testing

@Suite struct BindingTests {
    @Test func aBusyPortFailsAtOnceNamingThePort() async throws {
        let first = try StubServer(stubs: plainStubs)
        defer { first.stopSynchronously() }
        do {
            _ = try StubServer(stubs: plainStubs, port: first.port)
            Issue.record("a second server bound the same port")
        } catch let error as BindError {
            #expect(error.description.contains("port \(first.port)"))
            #expect(error.description.contains("already in use"))
        }
    }

    @Test func anAddressThisMachineDoesNotHaveFailsNamingIt() {
        #expect {
            _ = try StubServer(stubs: plainStubs, host: "192.0.2.77")
        } throws: { error in
            (error as? BindError)?.description.contains("192.0.2.77 is not an address of this machine") == true
        }
    }

    @Test func loopbackByDefault() throws {
        let server = try StubServer(stubs: plainStubs)
        defer { server.stopSynchronously() }
        #expect(server.host == "127.0.0.1")
    }

    @Test func ipv6Loopback() async throws {
        let server = try StubServer(stubs: plainStubs, host: "::1")
        defer { server.stopSynchronously() }
        #expect(server.baseURL.absoluteString.hasPrefix("http://[::1]:"))
        let r = try curl(["-g", "-o", "/dev/null", "-w", "%{http_code}", server.baseURL.absoluteString + "/plain/payload.json"])
        #expect(r.output == "200")
    }

    @Test func stopIsIdempotent() async throws {
        let server = try await StubServer.start(stubs: plainStubs)
        await server.stop()
        await server.stop()
        let r = try curl(["-o", "/dev/null", "-w", "%{http_code}", server.baseURL.absoluteString + "/plain/payload.json"])
        #expect(r.status == 7, "connection refused after stop")
    }
}
