import Foundation
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// The github profile as a real GitHub client sees it (issue 14, item 5). The client is PyGithub
/// (1.x, pinned in scripts/requirements-test.txt): it reads `x-ratelimit-*` after every call, asks
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

    @Test func aGitHubClientSeesItsCallsCountDownAndRaisesItsOwnRateLimitError() async throws {
        try requirePython(modules: "github")
        let stubs = try TempStubs(["stubd.yml": Self.stubs])
        try await withServer(stubs.url) { server in
            let r = try run(testPython, ["-c", Self.client, server.baseURL.absoluteString])
            #expect(r.status == 0, "\(r.error)")
            let lines = r.output.split(separator: "\n").map(String.init)
            #expect(lines.first == "before 3", "\(r.output)")
            #expect(lines.dropFirst().prefix(3) == ["remaining 2", "remaining 1", "remaining 0"], "\(r.output)")
            #expect(lines.count > 4 && lines[4].hasPrefix("raised 403 API rate limit exceeded for user ID "), "\(r.output)")
            #expect(lines.last == "after 0", "\(r.output)")
            #expect(!r.output.contains("SECRET"), "the token came back in an answer: \(r.output)")
        }
    }

    /// The GitHub folder users copy (Examples/GitHub/Stubs; issue 24 item 6), as PyGithub uses it: a repository by
    /// name, the countdown from 5000, and, with the quota pre-filled as the manifest's comment says,
    /// GitHub's own rate-limit error and an empty /rate_limit.
    @Test func theGitHubExampleFolderAnswersPyGithub() async throws {
        try requirePython(modules: "github")
        let client = """
            import sys, github
            g = github.Github("ghp_EXAMPLE0123456789", base_url=sys.argv[1])
            if sys.argv[2] == "use":
                print("limit", g.get_rate_limit().core.limit, g.get_rate_limit().core.remaining)
                repo = g.get_repo("octocat/Hello-World")
                print("repo", repo.full_name, repo.owner.login, repo.stargazers_count)
                print("remaining", g.rate_limiting[0], g.rate_limiting[1])
            else:
                try:
                    g.get_repo("octocat/Hello-World")
                    print("no error")
                except github.RateLimitExceededException as e:
                    print("raised", e.status)
                print("left", g.get_rate_limit().core.remaining)
            """
        try await withServer(gitHubStubs) { server in
            let used = try run(testPython, ["-c", client, server.baseURL.absoluteString, "use"])
            #expect(used.status == 0, "\(used.error)")
            #expect(used.output == "limit 5000 5000\nrepo octocat/Hello-World octocat 80\nremaining 4999 5000\n", "\(used.output) \(used.error)")
            let quotas = try await get(server.baseURL, "/__stubd/quotas").json["quotas"] as? [[String: Any]]
            let github = try #require(quotas?.first { $0["name"] as? String == "github" })
            let key = try #require((github["keys"] as? [[String: Any]])?.first?["key"] as? String)
            let fill = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/quotas/github")!, method: "PUT",
                                      body: String(decoding: try JSONSerialization.data(withJSONObject: ["key": key, "used": ["hour": 5000]]), as: UTF8.self))
            #expect(fill.status == 200, "\(fill.text)")
            let limited = try run(testPython, ["-c", client, server.baseURL.absoluteString, "limited"])
            #expect(limited.status == 0, "\(limited.error)")
            #expect(limited.output == "raised 403\nleft 0\n", "\(limited.output) \(limited.error)")
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
