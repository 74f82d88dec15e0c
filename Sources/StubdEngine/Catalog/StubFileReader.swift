package import Foundation

/// Reads files under the stubs root without ever leaving it.
package struct StubFileReader {
    let root: URL
    /// The root with symlinks resolved, to check where a link really points.
    let realRoot: String

    package init(root: URL) {
        self.root = root.standardizedFileURL
        self.realRoot = StubFileReader.realPath(self.root.path) ?? self.root.path
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// True when `path` (absolute) resolves to somewhere inside the root.
    func isInsideRoot(_ path: String) -> Bool {
        guard let real = StubFileReader.realPath(path) else { return false }
        return real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// Names a `file:` reference may not use, whatever the folder holds: the manifest itself.
    static let manifestNames = Set(ManifestFile.names)

    /// Reads a file named by a manifest or a runtime stub (`file: owm/london.json`), relative to the
    /// root or `__files/`, by the folder's own rules: never outside it, never a dot-file (`.env`,
    /// `.git/config`) nor the manifest, which the convention does not serve either.
    func readReferenced(_ relative: String) -> Result<(data: Data, path: String), ReferenceError> {
        let parts = relative.split(separator: "/")
        if relative.hasPrefix("/") || parts.contains("..") {
            return .failure(.outsideRoot)
        }
        if parts.contains(where: { $0.hasPrefix(".") }) || parts.last.map({ StubFileReader.manifestNames.contains(String($0)) }) == true {
            return .failure(.notServed)
        }
        for candidate in [relative, "__files/" + relative] {
            let path = root.appendingPathComponent(candidate).path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            guard isInsideRoot(path) else { return .failure(.outsideRoot) }
            guard let data = FileManager.default.contents(atPath: path) else { return .failure(.unreadable) }
            return .success((data, candidate))
        }
        return .failure(.missing)
    }

    enum ReferenceError: Error { case missing, outsideRoot, unreadable, notServed }
}
