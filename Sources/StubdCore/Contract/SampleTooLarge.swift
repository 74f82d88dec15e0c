import StubdEngine

/// A schema asked the sampler for a body past its size or time limit: named by its place in the
/// spec and what it asked for, so the user knows which bound to lower or where to write an example.
struct SampleTooLarge: Error, CustomStringConvertible {
    /// `#/components/schemas/Grid/items`.
    let pointer: String
    /// `minItems 10000`.
    let asks: String
    /// `grows past 4 MiB`, `takes more than 2 s`.
    let overrun: String

    var description: String {
        "the schema at \(pointer) (\(asks)) makes the sampled body \(overrun), the limit for one sampled body; write an example in the spec"
    }
}
