import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdProtocol
import StubdTestSupport
import Testing

/// HTTPS through libmicrohttpd's own TLS (GnuTLS), with leaves from the local CA (issue 28).
@Suite struct HTTPSTests {
    /// A CA folder of the test's own: the user's `~/.stubd/ca` is never touched.
    static func caDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("stubd-ca-\(UUID().uuidString)/ca")
    }

    static func options(ca: URL, onMainPort: Bool = true, extraPort: UInt16? = nil, asHosts: [String] = [],
                        notices: Locked<[String]>? = nil) -> StubServer.Options {
        var options = StubServer.Options()
        options.tls = TLSOptions(caDirectory: ca, onMainPort: onMainPort, extraPort: extraPort)
        options.asHosts = asHosts
        if let notices { options.notice = { message in notices.withLock { $0.append(message) } } }
        return options
    }

    static let path = "/data/2.5/weather?q=London&APPID=k"

    @Test func curlTrustingTheCAGetsTheStubAndWithoutItTheHandshakeIsRefused() async throws {
        let ca = Self.caDirectory()
        try await withServer(exampleStubs, options: Self.options(ca: ca)) { server in
            #expect(server.baseURL.scheme == "https")
            let cafile = ca.appendingPathComponent("ca.pem").path
            let trusted = try curl(["--cacert", cafile, "-w", "\n%{http_code}", "https://localhost:\(server.port)\(Self.path)"])
            #expect(trusted.status == 0 && trusted.output.hasSuffix("\n200"), "\(trusted)")
            #expect(trusted.output.contains(#""name": "London""#))
            let byAddress = try curl(["--cacert", cafile, "https://127.0.0.1:\(server.port)/__stubd/health"])
            #expect(byAddress.output.contains(#""status":"ok""#), "the leaf names 127.0.0.1 too: \(byAddress)")
            let untrusted = try curl(["https://localhost:\(server.port)\(Self.path)"])
            #expect(untrusted.status == 60, "curl's 'peer certificate cannot be authenticated': \(untrusted)")
        }
    }

    @Test func pythonSslWithTheCAAsCafileAndRequestsWithVerifyGetTheStub() async throws {
        try requirePython(modules: "requests")
        let ca = Self.caDirectory()
        try await withServer(exampleStubs, options: Self.options(ca: ca)) { server in
            let script = """
                import json, ssl, sys, urllib.request, requests
                url, cafile = sys.argv[1], sys.argv[2]
                context = ssl.create_default_context(cafile=cafile)
                with urllib.request.urlopen(url, context=context) as r:
                    print(r.status, json.load(r)["name"])
                answer = requests.get(url, verify=cafile)
                print(answer.status_code, answer.json()["name"])
                try:
                    urllib.request.urlopen(url, context=ssl.create_default_context())
                    print("trusted without the CA")
                except urllib.error.URLError as e:
                    print("refused", type(e.reason).__name__)
                """
            let r = try run(testPython, ["-c", script, "https://localhost:\(server.port)\(Self.path)",
                                                 ca.appendingPathComponent("ca.pem").path])
            #expect(r.output == "200 London\n200 London\nrefused SSLCertVerificationError\n", "\(r.output) \(r.error)")
        }
    }

    /// URLSession on Linux checks servers against the system's CA bundle only (it gives libcurl
    /// /etc/ssl/certs/ca-certificates.crt and delivers no server-trust challenge to a delegate), so a
    /// test cannot make it trust the CA; it must at least refuse the leaf rather than accept it.
    @Test func urlSessionThatDoesNotTrustTheCARefusesTheHandshake() async throws {
        try await withServer(exampleStubs, options: Self.options(ca: Self.caDirectory())) { server in
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            await #expect(throws: (any Error).self) {
                _ = try await session.data(from: URL(string: "https://localhost:\(server.port)/__stubd/health")!)
            }
        }
    }

    @Test func aTLSPortServesHTTPSBesidePlainHTTP() async throws {
        let ca = Self.caDirectory()
        try await withServer(exampleStubs, options: Self.options(ca: ca, onMainPort: false, extraPort: 0)) { server in
            #expect(server.baseURL.scheme == "http")
            let https = try #require(server.httpsURL)
            #expect(https.port != server.baseURL.port)
            #expect(try await get(server.baseURL, Self.path).status == 200)
            let r = try curl(["--cacert", ca.appendingPathComponent("ca.pem").path, "-w", "\n%{http_code}",
                              "https://localhost:\(https.port!)\(Self.path)"])
            #expect(r.output.hasSuffix("\n200"), "\(r)")
            // One server, one count: both ports answered the same route.
            #expect(try await get(server.baseURL, "/__stubd/hits?route=london").json["hits"] as? Int == 2)
        }
    }

    /// The leaf is picked by the name the client asks for (SNI): a host the folder serves gets one
    /// for its name; any other gets localhost's, which the client refuses naming the host it wanted,
    /// and the log says how to serve it.
    @Test func aServedHostGetsItsOwnLeafAndAnUnknownNameAClearRefusal() async throws {
        let ca = Self.caDirectory()
        let stubs = try TempStubs(["api.example.com/v1/users.json": #"{"from": "api.example.com"}"#])
        let notices = Locked<[String]>([])
        try await withServer(stubs.url, options: Self.options(ca: ca, notices: notices)) { server in
            let cafile = ca.appendingPathComponent("ca.pem").path
            let served = try curl(["--cacert", cafile, "--resolve", "api.example.com:\(server.port):127.0.0.1",
                                   "https://api.example.com:\(server.port)/v1/users"])
            #expect(served.output.contains(#""from": "api.example.com""#), "\(served)")
            let unknown = try run("/usr/bin/curl", ["-sS", "--max-time", "5", "--cacert", cafile,
                                                    "--resolve", "nope.example.net:\(server.port):127.0.0.1",
                                                    "https://nope.example.net:\(server.port)/v1/users"])
            #expect(unknown.status == 60, "\(unknown)")
            #expect(unknown.error.contains("no alternative certificate subject name matches target host name 'nope.example.net'"), "\(unknown.error)")
            let said = notices.withLock { $0 }.joined(separator: "\n")
            #expect(said.contains("a client asked for nope.example.net, which this Stubs folder does not serve"), "\(said)")
            #expect(said.contains("Add a folder named nope.example.net") && said.contains("--as-host nope.example.net"), "\(said)")
        }
    }

    @Test func theCAIsMadeOnFirstUseWithAKeyOnlyTheUserCanReadAndKeptAfterwards() throws {
        let dir = Self.caDirectory()
        let made = try CertificateAuthority.loadOrCreate(in: dir)
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let key = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("ca-key.pem").path)
        #expect((key[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let again = try CertificateAuthority.loadOrCreate(in: dir)
        #expect(try again.certificatePEM == made.certificatePEM, "a second start uses the CA clients already trust")
        let renewed = try CertificateAuthority.renew(in: dir)
        #expect(try renewed.certificatePEM != made.certificatePEM)
        #expect(try CertificateAuthority.loadOrCreate(in: dir).certificatePEM == renewed.certificatePEM)
    }

    @Test func aCAFolderThatCannotBeWrittenStopsTheStartSayingWhatToDo() async throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-ca-file-\(UUID().uuidString)")
        try Data("not a folder".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        await #expect {
            _ = try await StubServer.start(stubs: exampleStubs, options: Self.options(ca: blocker.appendingPathComponent("ca")))
        } throws: { error in
            "\(error)".contains("cannot create the CA folder") && "\(error)".contains("--ca-dir")
        }
    }

    /// Clients that open a connection and stop mid-handshake (or before it) hold their connections,
    /// not a worker: a client behind them is served.
    @Test func stalledTLSHandshakesDoNotHoldUpOtherClients() async throws {
        let ca = Self.caDirectory()
        var options = Self.options(ca: ca)
        options.threads = 1
        try await withServer(exampleStubs, options: options) { server in
            // The first bytes of a TLS record header (a ClientHello's), then nothing; and silent connections.
            var stalled: [Int32] = []
            defer { for fd in stalled { close(fd) } }
            for i in 0..<40 {
                guard let fd = connectLoopback(port: server.port) else { continue }
                if i % 2 == 0 { _ = [UInt8]([0x16, 0x03, 0x01, 0x02]).withUnsafeBytes { send(fd, $0.baseAddress, 4, 0) } }
                stalled.append(fd)
            }
            #expect(stalled.count == 40)
            let r = try curl(["--cacert", ca.appendingPathComponent("ca.pem").path, "-w", "\n%{http_code}",
                              "https://localhost:\(server.port)/__stubd/health"])
            #expect(r.output.hasSuffix("\n200"), "\(r)")
        }
    }

    /// The issue's bar: over the connection cap, with every place held by a half-finished TLS
    /// handshake, a normal client is still served: the oldest stalled handshake gives its place up.
    @Test func overTheCapStalledHandshakesGiveWayToANormalClient() async throws {
        let ca = Self.caDirectory()
        var options = Self.options(ca: ca)
        options.threads = 1
        options.maxConnections = 16
        try await withServer(exampleStubs, options: options) { server in
            var stalled: [Int32] = []
            defer { for fd in stalled { close(fd) } }
            for i in 0..<16 {
                guard let fd = connectLoopback(port: server.port) else { continue }
                if i % 2 == 0 { _ = [UInt8]([0x16, 0x03, 0x01, 0x02]).withUnsafeBytes { send(fd, $0.baseAddress, 4, 0) } }
                stalled.append(fd)
            }
            #expect(stalled.count == 16)
            // Past the grace a handshake has before it may be evicted (one second), generously.
            try await Task.sleep(for: .seconds(1.5))
            let cafile = ca.appendingPathComponent("ca.pem").path
            for _ in 0..<3 {
                let r = try curl(["--cacert", cafile, "-w", "\n%{http_code}", "https://localhost:\(server.port)/__stubd/health"])
                #expect(r.output.hasSuffix("\n200"), "\(r)")
            }
        }
    }
}
