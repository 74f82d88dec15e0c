import HTTPTypes
import StubdEngine
/// A stub another tool declared (a WireMock mapping, a Postman example), translated and ready for
/// StubsImport, or the reason it cannot come over; the table's row is made from it.
struct ImportCandidate {
    /// Where it is in the input: `mappings/todo.json#/mappings/2`, `/item/0/item/3/response/1`.
    var source: String
    var method: String
    var target: String
    var status: Int
    var stub: DeclaredStub?
    /// Why it was left out, when `stub` is nil.
    var leftOut: String?
    /// What came over only in part.
    var partial: [String] = []
    /// The request's identity: two candidates alike would be one route.
    var identity: String = ""
    /// Said after where it came over (`when asked for by x-mock-response-name`).
    var result: String?

    /// Method, path, query, headers and body condition, as one string.
    static func identity(of stub: DeclaredStub) -> String {
        [stub.method.rawValue, stub.path, stub.query.map { "\($0.name)=\($0.value ?? "")" }.sorted().joined(separator: "&"),
         stub.headers.map { "\($0.name.canonicalName):\($0.value)" }.sorted().joined(separator: "\n"),
         stub.requestJSON?.serialized ?? "", stub.requestContains ?? "",
         stub.scenario.map { "\($0.name)|\($0.whenState ?? "")|\($0.thenState ?? "")" } ?? ""].joined(separator: "\n")
    }
}
