import Foundation

/// Which part of a Stubs folder answers a request for a host, when stubd stands in for real hosts
/// (proxy mode, a TLS connection's name). A top-level folder named after a host
/// (`Stubs/api.example.com/v1/users.json`) answers that host alone; the folder's top level answers
/// the hosts named with `--as-host` and stubd's own names (localhost, loopback addresses, this
/// machine's name). Any other host is not served: the caller says so rather than guessing.
package struct HostScope: Sendable {
    /// `--as-host` names, lower-case, without a port.
    package let standIns: Set<String>
    /// This machine's name, lower-case: a client on the machine may use it for stubd itself.
    private let machineName: String

    package init(asHosts: [String] = [], machineName: String = ProcessInfo.processInfo.hostName) {
        standIns = Set(asHosts.map { HostScope.normalize($0) })
        self.machineName = machineName.lowercased()
    }

    package enum Resolution: Equatable, Sendable {
        /// Matched as this path.
        case path(String)
        /// No folder answers the host.
        case notServed
    }

    /// Where a request for `host` (any case, a port allowed) and `path` is matched, given the
    /// catalog's host folders (lower-case name → the folder's own spelling).
    package func resolve(host: String, path: String, hostFolders: [String: String]) -> Resolution {
        let host = HostScope.normalize(host)
        if let folder = hostFolders[host] { return .path(path == "/" ? "/" + folder : "/" + folder + path) }
        if standIns.contains(host) || isOwnName(host) { return .path(path) }
        return .notServed
    }

    /// A name a client on this machine reaches stubd itself by.
    package func isOwnName(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host == "::1"
            || host == machineName || host.isEmpty
    }

    /// `API.Example.com:443` → `api.example.com`; `[::1]:80` → `::1`.
    package static func normalize(_ authority: String) -> String {
        var host = Substring(authority)
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("[") {
            let end = host.firstIndex(of: "]") ?? host.endIndex
            host = host[host.index(after: host.startIndex)..<end]
        } else if let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        return host.lowercased()
    }

    /// Whether a top-level folder's name is a host name, so the folder answers that host: letters,
    /// digits and hyphens in at least two dot-separated labels, the last of them letters only
    /// (`api.example.com`, `localhost.test`). `v2.1`, `2.5` and `data` stay plain path segments,
    /// so a single-host folder keeps its meaning.
    package static func isHostFolderName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, name.utf8.count <= 253 else { return false }
        for label in labels {
            guard !label.isEmpty, label.utf8.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-"),
                  label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return false }
        }
        return labels.last!.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// The host folders among `routes`' first path segments: lower-case name → the folder's spelling.
    package static func hostFolders(of routes: [Route]) -> [String: String] {
        var folders: [String: String] = [:]
        for route in routes {
            // More than one segment: a folder, not a top-level file such as `weather.json`.
            if case .literal(let first)? = route.pattern.segments.first, route.pattern.segments.count > 1,
               isHostFolderName(first) {
                folders[first.lowercased()] = folders[first.lowercased()] ?? first
            }
        }
        return folders
    }
}
