/// One route under a quota keyed by a query value (`?k=`), 10 a minute per key, on a virtual clock,
/// with `maxKeys` when given: QuotaKeyServerTests (through `stubd serve`) and QuotaKeyAnswerTests
/// (no socket) share it.
public enum KeyedQuotaStubs {
    public static func folder(maxKeys: Int? = nil) throws -> TempStubs {
        try TempStubs([
            "a.json": "{}",
            "stubd.yml": """
            clock: { virtual: "2016-08-30T00:00:20Z" }
            quotas:
              - name: keyed
                routes: ["GET /a.json"]
                key: { query: k }
                limits: ["10/minute"]\(maxKeys.map { "\n    maxKeys: \($0)" } ?? "")
            """,
        ])
    }
}
