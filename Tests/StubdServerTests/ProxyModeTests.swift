import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// Clients with no base-URL setting (issue 28): pointed at stubd through their proxy setting, they
/// send `GET http://host/path`, and stubd answers from the part of the folder that serves the host.
@Suite struct ProxyModeTests {
    static let owm = "http://api.openweathermap.org/data/2.5/weather?q=London&APPID=k"

    static func options(asHosts: [String]) -> StubServer.Options {
        var options = StubServer.Options()
        options.asHosts = asHosts
        return options
    }

    /// One folder, two hosts: a top-level folder named after a host answers that host, the rest
    /// answers stubd's own names and the `--as-host` ones, and the single-host layout is unchanged.
    static func twoHosts() throws -> TempStubs {
        try TempStubs(["v1/users.json": #"{"from": "top level"}"#,
                       "api.example.com/v1/users.json": #"{"from": "api.example.com"}"#,
                       "v2.1/info.json": #"{"from": "a dotted folder that is no host"}"#])
    }

    @Test func curlThroughItsProxySettingGetsTheStubForAnAsHost() async throws {
        try await withServer(exampleStubs, options: Self.options(asHosts: ["api.openweathermap.org"])) { server in
            let r = try curl(["-x", server.baseURL.absoluteString, "-w", "\n%{http_code}", Self.owm])
            #expect(r.output.hasSuffix("\n200"), "\(r.output)")
            #expect(r.output.contains(#""name": "London""#), "\(r.output)")
        }
    }

    @Test func aHostNoPartOfTheFolderServesIsA502NamingItAndTheWaysToServeIt() async throws {
        try await withServer(exampleStubs) { server in
            let r = try curl(["-x", server.baseURL.absoluteString, "-w", "\n%{http_code}", Self.owm])
            #expect(r.output.hasSuffix("\n502"), "\(r.output)")
            #expect(r.output.contains(#""title":"Host not stubbed""#), "\(r.output)")
            #expect(r.output.contains("stubd serves no stubs for api.openweathermap.org"), "\(r.output)")
            #expect(r.output.contains("add a folder named api.openweathermap.org"), "\(r.output)")
            #expect(r.output.contains("--as-host api.openweathermap.org"), "\(r.output)")
        }
    }

    @Test func aHostFolderAnswersItsHostAndTheTopLevelAnswersTheRest() async throws {
        let stubs = try Self.twoHosts()
        try await withServer(stubs.url, options: Self.options(asHosts: ["other.example.org"])) { server in
            let proxy = server.baseURL.absoluteString
            func via(_ url: String) throws -> String { try curl(["-x", proxy, url]).output }
            #expect(try via("http://api.example.com/v1/users").contains("api.example.com"))
            #expect(try via("http://API.Example.com:80/v1/users.json").contains("api.example.com"), "host names in any case, with a port")
            #expect(try via("http://other.example.org/v1/users").contains("top level"))
            #expect(try via("http://localhost/v1/users").contains("top level"), "stubd's own names need no --as-host")
            #expect(try via("http://other.example.org/v2.1/info").contains("no host"), "v2.1 is a path segment, not a host")
            #expect(try via("http://nowhere.example.net/v1/users").contains("Host not stubbed"))
            // Without a proxy: the single-host layout as before, and the host folder by its path.
            #expect(try await get(server.baseURL, "/v1/users").text.contains("top level"))
            #expect(try await get(server.baseURL, "/api.example.com/v1/users").text.contains("api.example.com"))
            // A client whose DNS sends the host here (a Host header naming it) gets that host's folder.
            let resolved = try curl(["--resolve", "api.example.com:\(server.port):127.0.0.1",
                                     "http://api.example.com:\(server.port)/v1/users"])
            #expect(resolved.output.contains(#""from": "api.example.com""#), "\(resolved.output)")
        }
    }

    @Test func theHostFoldersAreThoseOfTheCatalogAndNotDottedPathSegments() throws {
        let catalog = try StubCatalog.load(stubs: try Self.twoHosts().url)
        #expect(catalog.hostFolders == ["api.example.com": "api.example.com"])
        for name in ["api.example.com", "localhost.test", "a-b.c-d.io"] { #expect(HostScope.isHostFolderName(name), "\(name)") }
        for name in ["v2.1", "2.5", "data", "weather.json1", "-a.com", "a..com", "a.com."] {
            #expect(!HostScope.isHostFolderName(name), "\(name)")
        }
        let top = try StubCatalog.load(stubs: try TempStubs(["weather.json": "{}", "status.html": "ok"]).url)
        #expect(top.hostFolders.isEmpty, "a top-level file is not a host folder")
    }

    @Test func pythonRequestsAndUrllibThroughTheirProxySettingsGetTheStub() async throws {
        try requirePython(modules: "requests")
        try await withServer(exampleStubs, options: Self.options(asHosts: ["api.openweathermap.org"])) { server in
            let script = """
                import json, sys, urllib.request, requests
                proxy = sys.argv[1]
                answer = requests.get("http://api.openweathermap.org/data/2.5/weather",
                                      params={"q": "London,GB", "APPID": "k"}, proxies={"http": proxy})
                print(answer.status_code, answer.json()["name"])
                opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": proxy}))
                with opener.open("http://api.openweathermap.org/data/2.5/weather?q=London&APPID=k") as r:
                    print(r.status, json.load(r)["name"])
                """
            let r = try run(testPython, ["-c", script, server.baseURL.absoluteString])
            #expect(r.status == 0, "\(r.error)")
            #expect(r.output == "200 London\n200 London\n", "\(r.output) \(r.error)")
        }
    }

    /// The environment's proxy, as pyowm-like clients pick it up: nothing in the client's code.
    @Test func pythonRequestsWithOnlyHTTPProxyInItsEnvironmentGetsTheStub() async throws {
        try requirePython(modules: "requests")
        try await withServer(exampleStubs, options: Self.options(asHosts: ["api.openweathermap.org"])) { server in
            let script = """
                import requests
                answer = requests.get("http://api.openweathermap.org/data/2.5/weather", params={"q": "London", "APPID": "k"})
                print(answer.status_code, answer.json()["name"])
                """
            var environment = ProcessInfo.processInfo.environment
            environment["HTTP_PROXY"] = server.baseURL.absoluteString
            environment["NO_PROXY"] = ""
            let r = try run(testPython, ["-c", script], environment: environment)
            #expect(r.output == "200 London\n", "\(r.output) \(r.error)")
        }
    }

    /// A client that cannot add `X-Stubd-Session` names its session as the proxy's user name.
    @Test func theProxyUserNameIsTheSession() async throws {
        try await withServer(exampleStubs, options: Self.options(asHosts: ["api.openweathermap.org"])) { server in
            let proxy = "http://t1@127.0.0.1:\(server.port)"
            for _ in 0..<2 { _ = try curl(["-x", proxy, Self.owm]) }
            _ = try curl(["-x", server.baseURL.absoluteString, "-H", "X-Stubd-Session: t2", Self.owm])
            func hits(_ session: String) async throws -> Int {
                let r = try await get(server.baseURL, "/__stubd/hits?route=london&session=\(session)")
                return r.json["hits"] as? Int ?? -1
            }
            #expect(try await hits("t1") == 2)
            #expect(try await hits("t2") == 1)
            #expect(try await hits("") == 0)
        }
    }

    // MARK: HTTPS clients: CONNECT, with the TLS ended by stubd

    /// A server whose CONNECT is answered from a CA of the test's own, made first, as `stubd ca path`
    /// makes it for a user who needs its path before the first CONNECT would.
    static func tlsOptions(asHosts: [String] = ["api.openweathermap.org"]) throws -> (StubServer.Options, cafile: String) {
        let ca = HTTPSTests.caDirectory()
        _ = try CertificateAuthority.loadOrCreate(in: ca)
        var options = HTTPSTests.options(ca: ca, onMainPort: false, asHosts: asHosts)
        options.tls?.extraPort = nil
        return (options, ca.appendingPathComponent("ca.pem").path)
    }

    static let owmHTTPS = "https://api.openweathermap.org/data/2.5/weather?q=London&APPID=k"

    @Test func curlThroughItsHTTPSProxyGetsTheStubOverTLSEndedByStubd() async throws {
        let (options, cafile) = try Self.tlsOptions()
        try await withServer(exampleStubs, options: options) { server in
            let r = try curl(["-x", server.baseURL.absoluteString, "--cacert", cafile, "-w", "\n%{http_code}", Self.owmHTTPS])
            #expect(r.status == 0 && r.output.hasSuffix("\n200"), "\(r)")
            #expect(r.output.contains(#""name": "London""#))
            let untrusted = try curl(["-x", server.baseURL.absoluteString, Self.owmHTTPS])
            #expect(untrusted.status == 60, "a client that does not trust the CA refuses the leaf: \(untrusted)")
        }
    }

    @Test func aCONNECTToAHostNothingServesIsRefusedWithA502NamingIt() async throws {
        let (options, cafile) = try Self.tlsOptions()
        try await withServer(exampleStubs, options: options) { server in
            let r = try run("/usr/bin/curl", ["-sS", "--max-time", "5", "-x", server.baseURL.absoluteString, "--cacert", cafile,
                                              "https://api.example.com/v1/users"])
            #expect(r.status == 56, "\(r)")
            #expect(r.error.contains("CONNECT tunnel failed, response 502"), "\(r.error)")
            let raw = rawExchange(port: server.port, Array("CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n".utf8))
            #expect(raw.hasPrefix("HTTP/1.1 502"), "\(raw)")
            #expect(raw.contains("stubd serves no stubs for api.example.com") && raw.contains("--as-host api.example.com"), "\(raw)")
        }
    }

    /// A client given an https:// proxy URL sends its CONNECT inside TLS: the answer says to use http://.
    @Test func aCONNECTInsideTLSIsRefusedSayingToUseAnHTTPProxyURL() async throws {
        let (options, cafile) = try Self.tlsOptions()
        var tlsOptions = options
        tlsOptions.tls?.extraPort = 0
        try await withServer(exampleStubs, options: tlsOptions) { server in
            let https = try #require(server.httpsURL)
            let r = try run("/usr/bin/curl", ["-sS", "--max-time", "5", "-x", "https://localhost:\(https.port!)", "--proxy-cacert", cafile,
                                              "--cacert", cafile, Self.owmHTTPS])
            #expect(r.error.contains("CONNECT tunnel failed, response 501"), "\(r)")
            // The plain port still tunnels.
            let plain = try curl(["-x", server.baseURL.absoluteString, "--cacert", cafile, "-w", "\n%{http_code}", Self.owmHTTPS])
            #expect(plain.output.hasSuffix("\n200"), "\(plain)")
        }
    }

    @Test func aServerWithoutTLSSaysSoToACONNECT() async throws {
        try await withServer(exampleStubs) { server in
            let raw = rawExchange(port: server.port, Array("CONNECT api.openweathermap.org:443 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(raw.hasPrefix("HTTP/1.1 501"), "\(raw)")
            #expect(raw.contains("started without TLS"), "\(raw)")
        }
    }

    @Test func pythonRequestsWithOnlyHTTPSProxyAndTheCABundleInItsEnvironmentGetsTheStub() async throws {
        try requirePython(modules: "requests")
        let (options, cafile) = try Self.tlsOptions()
        try await withServer(exampleStubs, options: options) { server in
            var environment = ProcessInfo.processInfo.environment
            environment["HTTPS_PROXY"] = server.baseURL.absoluteString
            environment["REQUESTS_CA_BUNDLE"] = cafile
            environment["NO_PROXY"] = ""
            let script = """
                import requests
                answer = requests.get("https://api.openweathermap.org/data/2.5/weather", params={"q": "London", "APPID": "k"})
                print(answer.status_code, answer.json()["name"])
                """
            let r = try run(testPython, ["-c", script], environment: environment)
            #expect(r.output == "200 London\n", "\(r.output) \(r.error)")
        }
    }

    /// The issue's bar: pyowm, whose base URL cannot be changed, with nothing but the proxy and the CA
    /// bundle in its environment, gets the stubbed weather, then its own error once the quota is spent.
    @Test func pyowmUnmodifiedGetsTheStubAndThe429WhenTheQuotaRunsOut() async throws {
        try requirePython(modules: "pyowm")
        let (options, cafile) = try Self.tlsOptions()
        try await withServer(exampleStubs, options: options) { server in
            var environment = ProcessInfo.processInfo.environment
            environment["HTTPS_PROXY"] = "http://owm:x@127.0.0.1:\(server.port)"  // requests sends no user without a password
            environment["REQUESTS_CA_BUNDLE"] = cafile
            environment["NO_PROXY"] = ""
            let script = """
                from pyowm import OWM
                from pyowm.commons import exceptions
                manager = OWM("k1").weather_manager()
                try:
                    observation = manager.weather_at_place("London,GB")
                    print("weather", observation.location.name, observation.weather.status)
                except exceptions.APIRequestError as e:
                    print("refused", str(e)[:60])
                """
            // The example's quota counts the real clock's minutes: the fill and the refused call share one.
            try await waitOutMinuteBoundary()
            let first = try run(testPython, ["-c", script], environment: environment)
            #expect(first.output == "weather London Clouds\n", "\(first.output) \(first.error)")
            // Spend the rest of the minute's quota in pyowm's session (its proxy user name).
            let fill = URL(string: server.baseURL.absoluteString + "/__stubd/quotas/openweathermap?session=owm")!
            let filled = try await http(fill, method: "PUT", body: #"{"key": "k1", "used": {"minute": 60}}"#,
                                        headers: ["Content-Type": "application/json"])
            #expect(filled.status == 200, "\(filled.text)")
            let over = try run(testPython, ["-c", script], environment: environment)
            #expect(over.output.hasPrefix("refused {\"cod\":429"), "\(over.output) \(over.error)")
        }
    }

    /// A tunnel's requests belong to the session its CONNECT named as the proxy user.
    @Test func aTunnelsRequestsBelongToTheProxyUsersSession() async throws {
        let (options, cafile) = try Self.tlsOptions()
        try await withServer(exampleStubs, options: options) { server in
            for _ in 0..<3 { _ = try curl(["-x", "http://s7@127.0.0.1:\(server.port)", "--cacert", cafile, Self.owmHTTPS]) }
            let r = try await get(server.baseURL, "/__stubd/hits?route=london&session=s7")
            #expect(r.json["hits"] as? Int == 3, "\(r.text)")
            #expect(try await get(server.baseURL, "/__stubd/hits?route=london").json["hits"] as? Int == 0)
        }
    }
}
