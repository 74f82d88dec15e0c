#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StubdProtocol
import Synchronization

/// Test suites start a server per test on the same, unchanged Stubs folder. Parsing it again
/// each time (YAML, JSON validation) would be most of a fixture's start-up, so the last few
/// catalogs are kept, keyed by a fingerprint of every entry's path, type, size and modification
/// time. A catalog holds no runtime state, so servers share one.
package enum CatalogCache {
    private static let entries = Locked<[(root: String, fingerprint: [UInt64], catalog: StubCatalog)]>([])
    private static let capacity = 8

    static func lookup(root: String, fingerprint: [UInt64]) -> StubCatalog? {
        entries.withLock { list in list.first { $0.root == root && $0.fingerprint == fingerprint }?.catalog }
    }

    static func store(root: String, fingerprint: [UInt64], catalog: StubCatalog) {
        entries.withLock { list in
            list.removeAll { $0.root == root }
            list.insert((root, fingerprint, catalog), at: 0)
            if list.count > capacity { list.removeLast() }
        }
    }

    /// One number per entry under `root` (dot-files included: a manifest change must show),
    /// hashing its relative path, type, size and nanosecond modification time.
    static func fingerprint(of root: String) -> [UInt64]? {
        var result: [UInt64] = []
        var stack: [(path: String, depth: Int)] = [(root, 0)]
        while let (dir, depth) = stack.popLast() {
            guard depth < 64, let handle = opendir(dir) else { return nil }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = CatalogCache.name(of: entry)
                if name == "." || name == ".." { continue }
                let path = dir + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { return nil }
                var hasher = Hasher()
                hasher.combine(path)
                hasher.combine(info.st_mode)
                hasher.combine(info.st_size)
                #if canImport(Darwin)
                hasher.combine(info.st_mtimespec.tv_sec)
                hasher.combine(info.st_mtimespec.tv_nsec)
                #else
                hasher.combine(info.st_mtim.tv_sec)
                hasher.combine(info.st_mtim.tv_nsec)
                #endif
                hasher.combine(info.st_ino)
                result.append(UInt64(bitPattern: Int64(hasher.finalize())))
                if (info.st_mode & S_IFMT) == S_IFDIR { stack.append((path, depth + 1)) }
                // A link may point anywhere; its target's changes would not show here.
                if (info.st_mode & S_IFMT) == S_IFLNK { return nil }
            }
        }
        return result.sorted()
    }

    /// The entry's name, read in place up to its NUL. Not `withUnsafePointer(to: entry.pointee.d_name)`:
    /// that copies the whole 256-byte field, and glibc packs entries by `d_reclen`, so the copy of
    /// the last entry in readdir's buffer could run past the buffer's last page: `stubd serve` of a
    /// 10,001-file folder crashed at start (SIGSEGV, "bad pointer dereference" at a page boundary)
    /// about once in 30 starts.
    static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }
}
