public import Foundation

/// Two specs' stubs in one folder (vendors ship one spec per service): weather.yaml (OpenAPI 3.1,
/// 3 operations) and orders.yaml (3.0.3, 2), each declaring a `/things/…` path, and a path neither
/// declares. SeveralSpecsServeTests serves them through `stubd serve --spec A --spec B`,
/// SeveralSpecsAnswerTests through the engine.
public enum SeveralSpecsStubs {
    public static let weather = """
        openapi: 3.1.0
        info: {title: Weather, version: '1'}
        paths:
          /weather/{city}:
            get:
              parameters:
                - {name: city, in: path, required: true, schema: {type: string}}
                - {name: units, in: query, schema: {type: string, enum: [metric, imperial]}}
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
          /forecast:
            get:
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
          /things/{id}:
            get:
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
        """
    public static let orders = """
        openapi: 3.0.3
        info: {title: Orders, version: '1'}
        paths:
          /orders/{id}:
            get:
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
          /things/mine:
            get:
              parameters:
                - {name: owner, in: query, required: true, schema: {type: string}}
              responses:
                '200': {description: ok, content: {application/json: {schema: {type: object}}}}
        """
    public static let stubs = [
        "stubd.yml": """
            routes:
              - request: { method: GET, path: "/weather/{city}" }
                response: { status: 200, json: { temp: 3 } }
              - request: { method: GET, path: "/orders/{id}" }
                response: { status: 200, json: { id: 1 } }
              - request: { method: GET, path: "/things/{id}" }
                response: { status: 200, json: { thing: 1 } }
              - request: { method: GET, path: /things/mine }
                response: { status: 200, json: { mine: true } }
              - request: { method: GET, path: /free }
                response: { status: 200, json: { free: true } }
            """,
    ]

    /// The two specs, written beside each other; the stubs in a folder of their own.
    public static func folders(_ specs: [String: String] = ["weather.yaml": weather, "orders.yaml": orders]) throws -> (specs: URL, stubs: URL) {
        (try TempStubs(specs).url, try TempStubs(stubs).url)
    }
}
