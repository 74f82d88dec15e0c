/// A spec of two operations and a folder answering one of them twice (200, and 429 under
/// `Prefer: code=429`): coverage with a spec loaded (issue 27). SpecCoverageTests reads it through
/// `stubd coverage`, SpecCoverageAnswerTests through the engine.
public enum SpecCoverageStubs {
    public static let spec = """
    openapi: 3.0.3
    info: {title: weather, version: "1"}
    paths:
      /weather/{city}:
        get:
          parameters: [{name: city, in: path, required: true, schema: {type: string}}]
          responses:
            "200":
              description: the weather
              content: {application/json: {schema: {type: object, properties: {temp: {type: number}}}}}
            "429":
              description: too many requests
              content: {application/json: {schema: {type: object}}}
            "404":
              description: no such city
      /health:
        get:
          responses:
            "200": {description: up}
            default: {description: an error}

    """

    public static let stubs = [
        "stubd.yml": """
        routes:
          - name: weather
            request: { method: GET, path: "/weather/{city}" }
            response: { status: 200, json: { temp: 21.5 } }
          - name: weather-429
            request: { method: GET, path: "/weather/{city}", headers: { Prefer: "code=429" } }
            response: { status: 429, headers: { Retry-After: "30" }, json: { message: slow down } }

        """,
    ]
}
