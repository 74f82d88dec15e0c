/// A stubs folder whose one route, `feed` at /feed, answers `response` (YAML without indentation: a
/// stream whose items are due a minute and an hour apart) on a virtual clock starting at
/// 2026-01-01T00:00:00Z, so a test moves the clock instead of waiting (EventStreamTests, WebSocketTests).
public func virtualClockFeed(response: String) -> [String: String] {
    let body = response.split(separator: "\n").map { "      " + $0 + "\n" }.joined()
    return ["stubd.yml": """
        clock: { virtual: "2026-01-01T00:00:00Z" }
        routes:
          - name: feed
            request: { path: /feed }
            response:

        """ + body]
}
