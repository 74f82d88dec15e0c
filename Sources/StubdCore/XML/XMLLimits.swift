import StubdEngine

/// How large an XML body stubd reads may be, as `JSONLimits` bounds JSON: its bytes, and how deep its
/// elements nest. The reader keeps its own stack, so no depth could crash it, but a value that deep
/// is then judged by the schema evaluator, which recurses.
package struct XMLLimits: Sendable {
    package let maxBytes: Int
    package let maxDepth: Int

    package init(maxBytes: Int, maxDepth: Int) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    /// As deep as JSON is read (`JSONLimits.parserDepth`); 16 MiB, more than any answer or request body a test sends.
    package static let standard = XMLLimits(maxBytes: 16 << 20, maxDepth: JSONLimits.parserDepth)
}
