/// The scenario suites' manifests, each shared by the suite that runs it through `stubd serve`
/// (StubdServerTests) and the one that runs it with no socket (StubdCoreTests), written once.
public enum ScenarioManifests {
    /// A cart that fills and is paid, and a status route whose template reads the cart's state and the
    /// notes resource (ScenarioServerTests, ScenarioAnswerTests).
    public static let cartFlow = "routes:\n" + ScenarioRoutes.cart(added: "{ status: 201, json: { added: tea } }") + """
          - name: full-cart
            request: { path: /cart }
            response: { json: { items: [tea] } }
            scenario: cart
            whenState: has-item

        """ + ScenarioRoutes.pay + """
          - name: nothing-to-pay
            request: { method: POST, path: /pay }
            response: { status: 409, json: { paid: false } }
            priority: 9
          - name: status
            request: { path: /status }
            response:
              template: true
              json: { cart: "{{scenario 'cart'}}", notes: "{{resourceCount 'notes'}}", texts: "{{#each (resourceItems 'notes')}}{{this.text}};{{/each}}" }
        resources:
          - path: /notes
        """

    /// An order's state per path id under `maxKeys: 3`, keyed also by a JSON body field and a query
    /// value, and a summary whose template reads a key's state (ScenarioKeyServerTests, ScenarioKeyAnswerTests).
    public static let keyedOrders = """
        scenarios:
          order: { maxKeys: 3 }
        routes:
          - name: open-order
            request: { path: "/orders/{id}" }
            response: { json: { status: open } }
            scenario: order
            scenarioKey: { path: id }
            whenState: Started
          - name: paid-order
            request: { path: "/orders/{id}" }
            response: { json: { status: paid } }
            scenario: order
            scenarioKey: { path: id }
            whenState: paid

        """ + ScenarioRoutes.orderPay(name: "pay") + """
          - name: pay-again
            request: { method: POST, path: "/orders/{id}/pay" }
            response: { status: 409, json: { paid: false } }
            priority: 9
          - name: refund
            request: { method: POST, path: /refunds }
            response: { status: 201 }
            scenario: order
            scenarioKey: { jsonPath: '$.orderId' }
            whenState: paid
            thenState: refunded
          - name: track
            request: { path: /track }
            response: { json: { tracked: true } }
            scenario: order
            scenarioKey: { query: order }
            whenState: refunded
          - name: summary
            request: { path: "/summary/{id}" }
            response: { template: true, json: { order: "{{request.path.id}}", state: "{{scenario 'order' key=request.path.id}}" } }
        """

    /// An order's delivery moves per key on a virtual clock, and a door that closes 10 s after
    /// opening (ScenarioTimedMoveServerTests, ScenarioTimedMoveTests).
    public static let timedMoves = ScenarioRoutes.deliveryMoves("order", more: """
          door:
            moves: [{ from: open, after: 10s, to: closed }]

        """) + "routes:\n" + ScenarioRoutes.orderPay(name: "pay") + """
          - request: { path: "/orders/{id}" }
            response: { json: { status: shipped } }
            scenario: order
            scenarioKey: { path: id }
            whenState: shipped
          - request: { path: "/orders/{id}" }
            response: { template: true, json: { status: "{{scenario 'order' key=request.path.id}}" } }
            priority: 9
          - request: { method: POST, path: /door }
            response: { status: 204 }
            scenario: door
            thenState: open
          - request: { path: /door }
            response: { template: true, json: { door: "{{scenario 'door'}}" } }
        """
}
