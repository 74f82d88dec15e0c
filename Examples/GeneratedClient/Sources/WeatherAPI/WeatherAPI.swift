// The weather API's `Client`, `Operations` and `Components` are generated at build time by the
// OpenAPIGenerator plugin from openapi.yaml in this folder: a link to the spec stubd's own import
// tests use (Tests/StubdServerTests/Fixtures/OpenAPI/weather-3.0.yaml), so the two cannot drift.
