/// Where a route came from: shown in logs, the admin API and load errors.
package enum RouteSource: Sendable, Hashable, CustomStringConvertible {
    /// A file under the stubs root, served by the naming convention.
    case convention(file: String)
    /// A route in the manifest (`stubd.yml`).
    case manifest(file: String, line: Int)
    /// Added at run time through `POST /__stubd/stubs`.
    case runtime(id: String)

    package var description: String {
        switch self {
        case .convention(let file): return file
        case .manifest(let file, let line): return "\(file):\(line)"
        case .runtime(let id): return "runtime stub \(id)"
        }
    }

    /// Ties between equal priorities and specificities: runtime stubs, then manifest, then files.
    var tieRank: Int {
        switch self {
        case .runtime: return 0
        case .manifest: return 1
        case .convention: return 2
        }
    }
}
