/// Every problem in one template's text, in the order they stand in it: a user fixes them all in
/// one round instead of one per `stubd check`.
package struct TemplateErrors: Error, Sendable {
    package let all: [TemplateError]
}
