import StubdEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The folder an import reads from, and the one check every file it reads passes: its real path
/// (every symbolic link on the way resolved, the folders holding it included) lies inside the
/// folder's. Resolving only the last step let a `__files` that was itself a link to `~/.ssh` pass,
/// since `id_rsa` was inside the folder the link named; here nothing outside the import is read,
/// whichever component the link is. The HAR and Postman importers read only the one file named, so
/// this is WireMock's, whose mappings name more files (`bodyFileName`) relative to the folder.
struct ImportRoot {
    /// The folder as the user named it, for messages.
    let url: URL
    /// Its real path: a link in the path the user typed is the user's choice, and is followed.
    let realPath: String

    init(_ url: URL) {
        self.url = url.standardizedFileURL
        realPath = ImportRoot.realPath(self.url.path) ?? self.url.path
    }

    /// `url`'s real path, or nil when nothing is there (the caller says "missing" its own way).
    /// Throws, naming `label` and where it really leads, when that is outside the folder.
    func resolve(_ url: URL, label: String) throws(ImportError) -> URL? {
        guard let real = ImportRoot.realPath(url.path) else { return nil }
        guard real == realPath || real.hasPrefix(realPath == "/" ? "/" : realPath + "/") else {
            throw ImportError("\(label) is a symbolic link, or inside one, that leads out of the folder imported (\(url.path) is really \(real), "
                              + "outside \(realPath)): an import reads nothing outside its folder; copy the file in if it is meant to be imported")
        }
        return URL(fileURLWithPath: real)
    }

    /// realpath(3): the path with every `.`, `..` and symbolic link of every component resolved, or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
