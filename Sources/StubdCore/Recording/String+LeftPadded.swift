import StubdEngine

extension String {
    /// `"7".leftPadded(to: 3)` → `"007"`: zero-padded numbers in names, timestamps and escapes.
    package func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
