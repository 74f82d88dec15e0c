import StubdEngine

/// One way an answer breaks what its operation's response in the spec says: a status the spec does
/// not declare, a missing required header, a Content-Type it does not list, or a body value against
/// the schema. `AnswerConformance` finds them; a stub check places them in the stub's file, drift
/// reports them against the live API.
package struct AnswerViolation: Sendable, Hashable {
    /// A JSON pointer into the body (`""` the whole body), or nil when the answer as a whole is meant.
    package let pointer: String?
    /// `/main/temp: expected number, got string`, without the operation: the caller says which.
    package let message: String
    /// What to do, pointing into the spec.
    package let hint: String

    package init(pointer: String?, message: String, hint: String) {
        self.pointer = pointer
        self.message = message
        self.hint = hint
    }
}
