import Foundation
import StubdEngine

/// What a Stubs folder held before an import, so an import whose result does not load can be taken
/// back whole. The recorder only adds files and rewrites `stubd.recorded.yml` (it never overwrites a
/// file it did not write in `new` mode), so the files and folders that were there, and the bytes of
/// that manifest, are all it takes.
struct FolderSnapshot {
    let root: URL
    private let files: Set<String>
    private let directories: Set<String>
    private let recordedManifest: Data?

    init(root: URL) {
        self.root = root.standardizedFileURL
        (files, directories) = FolderSnapshot.walk(self.root)
        recordedManifest = FileManager.default.contents(atPath: self.root.appendingPathComponent(StubsRecorder.manifestName).path)
    }

    /// Removes what was added since, puts the recorded manifest back as it was.
    func restore() {
        let (now, nowDirectories) = FolderSnapshot.walk(root)
        for file in now.subtracting(files) { try? FileManager.default.removeItem(at: root.appendingPathComponent(file)) }
        let manifest = root.appendingPathComponent(StubsRecorder.manifestName)
        if let recordedManifest { try? recordedManifest.write(to: manifest) } else { try? FileManager.default.removeItem(at: manifest) }
        // Deepest first, so a folder is empty by the time it is removed.
        for directory in nowDirectories.subtracting(directories).sorted(by: { $0.count > $1.count }) {
            try? FileManager.default.removeItem(at: root.appendingPathComponent(directory))
        }
    }

    /// Relative paths of every file and folder under `root`, dot-files included, symlinks not followed.
    static func walk(_ root: URL) -> (files: Set<String>, directories: Set<String>) {
        var files: Set<String> = [], directories: Set<String> = []
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else { return ([], []) }
        for case let url as URL in walker {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true { directories.insert(relative) } else { files.insert(relative) }
        }
        return (files, directories)
    }
}
