import StubdEngine

/// Why a form or multipart request body could not be read into fields.
package struct FormBodyError: Error, Sendable {
    package let message: String
}
