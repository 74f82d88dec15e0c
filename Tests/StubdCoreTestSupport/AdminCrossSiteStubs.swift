/// The cross-site suites' folder and the runtime stub a page would plant: AdminCrossSiteTests sends it
/// over the wire, AdminCrossSiteAnswerTests through the engine.
public enum AdminCrossSiteStubs {
    public static let files: [String: String] = ["ok.json": #"{"ok": true}"#]
    public static let stub = #"{"request": {"path": "/planted"}, "response": {"body": "planted"}}"#
}
