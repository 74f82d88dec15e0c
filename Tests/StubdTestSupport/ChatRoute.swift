/// The `chat` WebSocket route the stream suites serve (WebSocketTests, SecureStreamsTests,
/// WebSocketPushTests, StreamCoverageTests, StreamJournalTests), written once: `welcome` when a
/// client connects, `pong` to `ping`. A suite adds what its tests need: subprotocols, messages after
/// `welcome`, replies after the `ping` one (YAML flow items, kept in order) and further keys of the
/// `websocket:` mapping. The result is one entry of a manifest's `routes:` list, ending in a newline.
public func chatRoute(
    protocols: [String] = [], messages: [String] = [], replies: [String] = [], settings: [String] = []
) -> String {
    var lines = [
        "  - name: chat",
        "    request: { path: /chat }",
        "    response:",
        "      websocket:",
    ]
    if !protocols.isEmpty { lines.append("        protocols: [\(protocols.joined(separator: ", "))]") }
    lines.append("        messages:")
    lines += (["{ text: welcome }"] + messages).map { "          - \($0)" }
    lines.append("        replies:")
    lines += (["{ match: { text: ping }, send: { text: pong } }"] + replies).map { "          - \($0)" }
    lines += settings.map { "        \($0)" }
    return lines.joined(separator: "\n") + "\n"
}
