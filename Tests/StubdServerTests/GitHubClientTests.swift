import Foundation
import Stubd
import StubdCore
import Testing

/// The github profile as a real GitHub client sees it (issue 14, item 5). The client is PyGithub
/// (Debian's python3-github, installed by .ci/run): it reads `x-ratelimit-*` after every call, asks
/// `GET /rate_limit`, and raises `RateLimitExceededException` on GitHub's 403.
@Suite struct GitHubClientTests {
    static let stubs = """
        routes:
          - name: repo
            request: { path: "/repos/{owner}/{repo}" }
            response:
              json: { id: 1, name: hello, full_name: octo/hello, stargazers_count: 7 }
          - name: rate-limit
            request: { path: /rate_limit }
            response: { quotaStatus: github }
        quotas:
          - name: rest
            routes: [repo]
            key: { header: Authorization }
            limits: ["3/hour"]
            exceeded: { profile: github }
            advertise: github
        """

    static let client = """
        import sys, github
        g = github.Github("ghp_SECRET0123456789", base_url=sys.argv[1])
        print("before", g.get_rate_limit().core.remaining)
        for _ in range(3):
            g.get_repo("octo/hello")
            print("remaining", g.rate_limiting[0])
        try:
            g.get_repo("octo/hello")
            print("no error")
        except github.RateLimitExceededException as e:
            print("raised", e.status, e.data["message"])
        print("after", g.get_rate_limit().core.remaining)
        """

    /// Debian's python3 with python3-github; `STUBD_TEST_PYTHON` names another (the macOS CI job's).
    static let python = ProcessInfo.processInfo.environment["STUBD_TEST_PYTHON"] ?? "/usr/bin/python3"

    @Test func aGitHubClientSeesItsCallsCountDownAndRaisesItsOwnRateLimitError() async throws {
        let module = try run(Self.python, ["-c", "import github"])
        try #require(module.status == 0, "PyGithub is missing from \(Self.python): apt-get install -y python3-github (.ci/run does), or set STUBD_TEST_PYTHON")
        let stubs = try TempStubs(["stubd.yml": Self.stubs])
        try await withServer(stubs.url) { server in
            let r = try run(Self.python, ["-c", Self.client, server.baseURL.absoluteString])
            #expect(r.status == 0, "\(r.error)")
            let lines = r.output.split(separator: "\n").map(String.init)
            #expect(lines.first == "before 3", "\(r.output)")
            #expect(lines.dropFirst().prefix(3) == ["remaining 2", "remaining 1", "remaining 0"], "\(r.output)")
            #expect(lines.count > 4 && lines[4].hasPrefix("raised 403 API rate limit exceeded for user ID "), "\(r.output)")
            #expect(lines.last == "after 0", "\(r.output)")
            #expect(!r.output.contains("SECRET"), "the token came back in an answer: \(r.output)")
        }
    }

    @Test func theResourceHeaderIsGitHubsResourceNotTheQuotaName() async throws {
        let stubs = try TempStubs(["stubd.yml": Self.stubs.replacingOccurrences(of: "advertise: github",
                                                                                 with: "advertise: github\n    resource: search")])
        try await withServer(stubs.url) { server in
            let r = try await get(server.baseURL, "/repos/octo/hello", headers: ["Authorization": "token t"])
            #expect(r.header("x-ratelimit-resource") == "search")
            let status = try await get(server.baseURL, "/rate_limit", headers: ["Authorization": "token t"])
            let resources = status.json["resources"] as? [String: Any]
            #expect((resources?["search"] as? [String: Any])?["remaining"] as? Int == 2, "\(status.text)")
        }
        let plain = try TempStubs(["stubd.yml": Self.stubs])
        try await withServer(plain.url) { server in
            let r = try await get(server.baseURL, "/repos/octo/hello", headers: ["Authorization": "token t"])
            #expect(r.header("x-ratelimit-resource") == "core", "the default resource is core, not the quota's name 'rest'")
        }
    }

    @Test func aResourceOnAQuotaThatDoesNotAnswerAsGitHubIsALoadError() throws {
        let stubs = try TempStubs(["stubd.yml": Self.stubs.replacingOccurrences(of: "exceeded: { profile: github }\n    advertise: github",
                                                                                 with: "resource: core")])
        #expect {
            _ = try StubCatalog.load(stubs: stubs.url)
        } throws: { error in
            "\(error)".contains("does not answer as GitHub") && "\(error)".contains("advertise: github")
        }
    }
}
