/// The 10/minute + 500/day key of the motivating weather API, on a virtual clock: the quota suites'
/// folder (QuotaServerTests through a socket, QuotaAnswerTests through the engine, the in-process
/// front's tests through URLSession), written once.
public enum WeatherQuotaStubs {
    /// The conditions stub behind the quota, `open.json` outside it, and the manifest.
    public static let files: [String: String] = [
        "api/{key}/conditions/q/CA/San_Francisco.json": #"{"current_observation": {"temp_f": 76.5}}"#,
        "open.json": "{}",
        "stubd.yml": manifest(),
    ]

    /// The manifest with `routes` (a manifest's `routes:` entries, indented as one) after the quota.
    public static func manifest(routes: String = "") -> String {
        """
        clock: { virtual: "2016-08-30T00:00:00Z" }
        quotas:
          - name: wunderground
            routes: ["GET /api/{key}/**"]
            key: { path: key }
            limits: ["10/minute", "500/day"]

        """ + (routes.isEmpty ? "" : "routes:\n" + routes)
    }
}
