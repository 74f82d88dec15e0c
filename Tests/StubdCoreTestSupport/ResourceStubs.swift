/// The resource suites' folder (ResourceServerTests through `stubd serve`, ResourceAnswerTests with
/// no socket), written once: todos seeded from a file (25 items), a nested collection, notes with an
/// envelope, uuid ids and limits, and tags whose ids the body gives.
public enum ResourceStubs {
    public static let manifest = """
        resources:
          - path: /todos
            seed: todos.json
          - path: /users/{userId}/todos
            name: userTodos
            items:
              - { id: 1, userId: 1, title: "one's" }
              - { id: 1, userId: 2, title: "two's" }
          - path: /notes
            total: envelope
            idStrategy: uuid
            maxItems: 3
            maxItemBytes: 200
          - path: /tags
            idStrategy: body
        """

    public static func stubs() throws -> TempStubs {
        let seed = (1...25).map { #"{"id": \#($0), "title": "todo \#($0)", "done": \#($0 % 2 == 0)}"# }
        return try TempStubs(["stubd.yml": manifest, "__files/todos.json": "[" + seed.joined(separator: ",\n") + "]"])
    }
}
