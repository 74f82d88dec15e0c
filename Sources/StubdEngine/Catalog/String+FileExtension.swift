extension String {
    /// `San_Francisco.json` → `json`; `Makefile` → nil; `.hidden` → nil.
    package var fileExtension: String? {
        guard let dot = lastIndex(of: "."), dot != startIndex else { return nil }
        let ext = self[index(after: dot)...]
        return ext.isEmpty || ext.contains("/") ? nil : String(ext)
    }
}
