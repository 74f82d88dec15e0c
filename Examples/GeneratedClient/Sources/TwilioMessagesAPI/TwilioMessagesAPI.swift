// Twilio's Messages `Client`, `Operations` and `Components` are generated at build time by the
// OpenAPIGenerator plugin from openapi.yaml in this folder (a fragment of twilio/twilio-oai).
