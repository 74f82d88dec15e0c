public import Foundation

/// What a Stubs folder holds, in one short string: the same folder gives the same fingerprint on
/// any machine (a test's checkout, the docker-compose container), and any edit changes it. The
/// test fixtures compare theirs with the one `/__stubd/health` reports, so a test never runs
/// against a daemon that serves some other folder.
///
/// It covers every regular file under the folder except dot-files and dot-folders (stubd never
/// serves them): the relative path and the bytes of each, in path order, through 64-bit FNV-1a.
/// Not cryptographic; it tells folders apart, it does not defend against anyone.
public struct StubsFingerprint: Sendable, Equatable, Codable, CustomStringConvertible {
    /// 16 hex digits.
    public let digest: String
    /// How many files it covers.
    public let files: Int

    /// A fingerprint as given (from `/__stubd/health`); `of(folder:)` computes one.
    public init(digest: String, files: Int) {
        self.digest = digest
        self.files = files
    }

    /// `12 files, fingerprint 0123456789abcdef`: how messages about a folder mismatch show it.
    public var description: String { "\(files) file\(files == 1 ? "" : "s"), fingerprint \(digest)" }

    /// Reads the whole folder; nil when it is not a readable folder.
    public static func of(folder: URL) -> StubsFingerprint? {
        let root = folder.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue,
              let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                          options: [.skipsHiddenFiles]) else { return nil }
        // The walker may hand back paths through the folder's resolved location (/private/tmp on macOS).
        let prefixes = [root.path, root.resolvingSymlinksInPath().path].map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        var files: [(relative: String, url: URL)] = []
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            guard let prefix = prefixes.first(where: { path.hasPrefix($0) }) else { continue }
            files.append((String(path.dropFirst(prefix.count)), url))
        }
        files.sort { $0.relative < $1.relative }
        var hash = FNV1a()
        for file in files {
            hash.add(Data(file.relative.utf8))
            hash.add(Data([0]))
            hash.add((try? Data(contentsOf: file.url)) ?? Data())
            hash.add(Data([0]))
        }
        return StubsFingerprint(digest: hash.hex, files: files.count)
    }
}
