/// A 3.0 spec of the weather API whose answer schema is in a second file and refers to itself, and a
/// stub that keeps to it: the contract suites' fixture (ContractCheckTests through `stubd check` and
/// `stubd serve`, ContractAnswerTests through the engine), written once.
public enum WeatherContract {
    /// `openapi.yaml` and `schemas/weather.yaml`.
    public static let files: [String: String] = [
        "openapi.yaml": """
            openapi: 3.0.3
            info: { title: Weather, version: "1" }
            paths:
              /data/2.5/weather:
                get:
                  parameters:
                    - { name: q, in: query, required: true, schema: { type: string } }
                    - { name: units, in: query, schema: { type: string, enum: [standard, metric, imperial] } }
                    - { name: cnt, in: query, schema: { type: integer, minimum: 1 } }
                  responses:
                    "200":
                      description: the weather
                      content:
                        application/json:
                          schema: { $ref: "schemas/weather.yaml#/Weather" }
                    "429":
                      description: slow down
                      headers:
                        Retry-After: { required: true, schema: { type: integer } }
              /data/2.5/forecast:
                get:
                  responses:
                    "200": { description: a forecast, content: { application/json: { schema: { type: object } } } }
            """,
        "schemas/weather.yaml": """
            Weather:
              type: object
              additionalProperties: false
              required: [name, main]
              properties:
                name: { type: string }
                dt: { type: string, format: date-time }
                main:
                  type: object
                  required: [temp]
                  properties:
                    temp: { type: number }
                    humidity: { type: integer }
                    kind: { type: string, enum: [rain, sun, clouds] }
                next: { $ref: "#/Weather" }
            """,
    ]

    /// A `GET /data/2.5/weather` answer that keeps to the spec.
    public static let goodAnswer = #"{"name": "London", "dt": "2024-05-01T12:00:00Z", "main": {"temp": 11.5, "kind": "rain"}, "next": {"name": "Paris", "main": {"temp": 14}}}"#
}
