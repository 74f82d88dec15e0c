/// Every problem in one template's text, in the order they stand in it: a user fixes them all in
/// one round instead of one per `stubd check`.
public struct TemplateErrors: Error, Sendable {
    public let all: [TemplateError]
}
