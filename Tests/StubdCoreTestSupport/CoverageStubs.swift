/// One of everything coverage tells apart: a plain file, a sequence, a delay, a fault, a hang, a
/// throttle and a quota, on a virtual clock so the quota's window passes on request.
public enum CoverageStubs {
    /// The plain file, the unreached file, the answers' body file and the manifest.
    public static let files: [String: String] = [
        "plain.json": #"{"ok": true}"#,
        "never.json": "{}",
        "ok.json": "{}",
        "stubd.yml": """
        clock: { virtual: "2016-08-30T00:00:00Z" }
        routes:
          - name: flaky
            request: { path: /flaky }
            responses: [{ status: 503 }, { file: ok.json }]
          - name: slow
            request: { path: /slow }
            response: { file: ok.json, delay: 1ms }
          - name: drop
            request: { path: /drop }
            response: { fault: connection_reset }
          - name: stuck
            request: { path: /stuck }
            response: { fault: hang }
          - name: dribble
            request: { path: /dribble }
            response: { file: ok.json, throttle: 100000 }
          - name: limited
            request: { path: /limited }
            response: { file: ok.json }
        quotas:
          - { name: tight, routes: [limited], limits: ["2/minute"] }
        """,
    ]
}
