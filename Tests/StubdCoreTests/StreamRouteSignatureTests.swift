import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 62 item 7: a route is shown as the path clients call. `v1/chat/completions.POST.sse`
/// was `POST /v1/chat/completions.sse` in `stubd check` and `stubd hits`, a path no client calls;
/// `.sse` and `.ws` say what the file holds, `.json` may be the URL's own (`/weather.json`).
@Suite struct StreamRouteSignatureTests {
    @Test func anEventStreamOrWebSocketFileIsShownAsThePathClientsCall() throws {
        let harness = try EngineHarness(TempStubs([
            "v1/chat/completions.POST.sse": "data: {\"delta\": \"hi\"}\n",
            "live/scores.sse": "data: 1\n",
            "chat.ws": "messages:\n  - { text: hello }\n",
            "weather.json": "{}",
        ]))
        let signatures = Set(harness.engine.catalog.routes.map(\.signature))
        #expect(signatures == ["POST /v1/chat/completions", "GET /live/scores", "GET /chat", "GET /weather.json"], "\(signatures.sorted())")

        // The hit table (`stubd hits`) names the route so, and both paths still reach it.
        #expect(harness.answer("/v1/chat/completions", method: .post).status == 200)
        #expect(harness.answer("/v1/chat/completions.sse", method: .post).status == 200)
        let routes = try #require(harness.admin(.get, "hits").json["routes"] as? [[String: Any]])
        let chat = try #require(routes.first { $0["signature"] as? String == "POST /v1/chat/completions" }, "\(routes)")
        #expect(chat["route"] as? String == "POST /v1/chat/completions")
        #expect(chat["hits"] as? Int == 2)
        #expect(try harness.hits("POST /v1/chat/completions") == 2, "the route's count: both paths' requests")
        #expect(try harness.hits("POST /v1/chat/completions.sse") == 1, "a concrete path counts its own requests")
    }
}
