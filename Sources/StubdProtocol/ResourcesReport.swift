/// `GET /__stubd/resources`: the catalog's resources (`resources:` in stubd.yml), each with how many
/// items the session holds: what the dashboard's State view lists.
public struct ResourcesReport: Sendable, Equatable, Codable {
    /// One resource and the session's count of it.
    public struct Resource: Sendable, Equatable, Codable {
        /// Its name: the routes' (`todos.list`) and `/__stubd/resources/{name}`'s.
        public let name: String
        /// The collection's path, `{param}` segments for parents (`/users/{userId}/todos`).
        public let path: String
        /// Items the session holds now, every parent's together.
        public let count: Int

        /// An entry as given.
        public init(name: String, path: String, count: Int) {
            self.name = name; self.path = path; self.count = count
        }
    }

    /// The session the counts are of (`""` for the default one).
    public let session: String
    /// Every resource, by name.
    public let resources: [Resource]

    /// A report as given.
    public init(session: String, resources: [Resource]) {
        self.session = session
        self.resources = resources
    }
}
