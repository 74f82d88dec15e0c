/// Scenario routes and moves the scenario suites share (ScenarioServerTests, ScenarioCoverageTests,
/// ScenarioKeyServerTests, ScenarioTimedMoveServerTests, and their tests moved off the socket into
/// StubdCoreTests), written once: here, not in StubdTestSupport, so both test targets reach them. Each route is one entry of a
/// manifest's `routes:` list, indented as one and ending in a newline.
public enum ScenarioRoutes {
    /// `empty-cart`: GET /cart answers no items in Started; `add-item`: POST /cart answers `added`
    /// (a YAML flow mapping) and moves the cart to has-item.
    public static func cart(added: String) -> String {
        """
          - name: empty-cart
            request: { path: /cart }
            response: { json: { items: [] } }
            scenario: cart
            whenState: Started
          - name: add-item
            request: { method: POST, path: /cart }
            response: \(added)
            scenario: cart
            thenState: has-item

        """
    }

    /// `pay`: POST /pay in has-item answers paid and moves the cart to paid.
    public static let pay = """
          - name: pay
            request: { method: POST, path: /pay }
            response: { json: { paid: true } }
            scenario: cart
            whenState: has-item
            thenState: paid

        """

    /// POST /orders/{id}/pay, keyed by the path's id: answers paid and moves that order from Started to paid.
    public static func orderPay(name: String) -> String {
        """
          - name: \(name)
            request: { method: POST, path: "/orders/{id}/pay" }
            response: { json: { paid: true } }
            scenario: order
            scenarioKey: { path: id }
            whenState: Started
            thenState: paid

        """
    }

    /// POST /orders/{id}/pay keyed by the path parameter `key` (a wrong name is what some tests check),
    /// moving the order to paid from any state.
    public static func anyOrderPay(key: String) -> String {
        """
          - request: { method: POST, path: "/orders/{id}/pay" }
            response: { status: 200 }
            scenario: order
            scenarioKey: { path: \(key) }
            thenState: paid

        """
    }

    /// A virtual clock and, under `scenarios:`, `scenario`'s timed moves paid → shipped after 30s and
    /// shipped → delivered after 1h, then `more` (other scenarios' entries, indented as they are).
    public static func deliveryMoves(_ scenario: String, more: String = "") -> String {
        """
        clock: { virtual: "2026-01-01T00:00:00Z" }
        scenarios:
          \(scenario):
            moves:
              - { from: paid, after: 30s, to: shipped }
              - { from: shipped, after: 1h, to: delivered }

        """ + more
    }
}
