import Testing
@testable import StubdEngine

/// Issue 63: a route's `graphql.query` is compared by shape. White space, comments, commas, the
/// order of fields and arguments inside a selection set and of the definitions do not matter;
/// what the query asks does. A document that is not GraphQL says where reading stopped.
@Suite struct GraphQLDocumentTests {
    private func shape(_ text: String) throws -> String { try GraphQLDocument(parsing: text).shape }

    @Test func spacingCommentsCommasAndOrderDoNotChangeTheShape() throws {
        let written = """
            # the weather screen
            query GetWeather($city: String!, $units: Units = METRIC) {
              weather(city: $city, units: $units) {
                tempC
                wind { speed, direction }
              }
            }
            """
        let sent = "query GetWeather($units:Units=METRIC $city:String!){weather(units:$units city:$city){wind{direction speed} tempC}}"
        #expect(try shape(written) == shape(sent))
        #expect(try shape("{ a b }") == shape("query { b a }"), "a bare selection set is a query")
        #expect(try shape(#"{ a(s: "x") }"#) == shape(#"{ a(s: """x""") }"#), "a block string reads as the string it holds")
        #expect(try shape("{ a(o: {x: 1, y: 2}) }") == shape("{ a(o: {y: 2 x: 1}) }"), "an input object's fields in any order")
        #expect(try shape("fragment F on T { x } query Q { ...F }") == shape("query Q { ...F } fragment F on T { x }"))
    }

    @Test func whatTheQueryAsksChangesTheShape() throws {
        #expect(try shape("{ a { b } }") != shape("{ a { c } }"), "another field")
        #expect(try shape("{ a(n: 1) }") != shape("{ a(n: 2) }"), "another argument")
        #expect(try shape("{ x: a }") != shape("{ a }"), "an alias")
        #expect(try shape("{ a @skip(if: true) }") != shape("{ a }"), "a directive")
        #expect(try shape("{ a(l: [1, 2]) }") != shape("{ a(l: [2, 1]) }"), "a list's order is its value")
        #expect(try shape("query A { a }") != shape("query B { a }"), "the operation's name")
        #expect(try shape("{ ... on User { id } }") != shape("{ ... on Admin { id } }"), "an inline fragment's type")
    }

    @Test func theOperationsAndTheirNamesAreRead() throws {
        let document = try GraphQLDocument(parsing: "query A { a } mutation B($x: [Int!]!) @log { b(x: $x) } subscription C { c }")
        #expect(document.operations.map(\.type) == ["query", "mutation", "subscription"])
        #expect(document.operation(named: "B")?.type == "mutation")
        #expect(document.operation(named: nil) == nil, "several operations and no name: none is picked")
        #expect(try GraphQLDocument(parsing: "query Only { a }").operation(named: nil)?.name == "Only")
    }

    @Test func aDocumentThatIsNotGraphQLSaysWhere() {
        let cases: [(text: String, line: Int, column: Int, saying: String)] = [
            ("query Q {\n  a(\n}", 3, 1, "expected an argument's name"),
            ("{ a }}", 1, 6, "expected an operation"),
            ("{ a(s: \"open) }", 1, 8, "a string is not closed"),
            ("{ a(s: \"two\nlines\") }", 1, 12, "a string ends at the end of its line"),
            ("{ a(n: 01) }", 1, 9, "does not start with 0"),
            ("{\n  a(s: \"\"\"never closed) }", 2, 8, "block string is not closed"),
            ("query { a } query { b }", 1, 1, "name each of them"),
            ("{ a {\n  b\n\n", 2, 4, "found the end of the document"),
            ("{ a %}", 1, 5, "unexpected character"),
            ("", 1, 1, "at least one operation"),
            (String(repeating: "{ a ", count: 200), 1, 513, "nested more than 128"),
        ]
        for c in cases {
            #expect(throws: GraphQLSyntaxError.self, "\(c.text)") { try GraphQLDocument(parsing: c.text) }
            do { _ = try GraphQLDocument(parsing: c.text) } catch {
                #expect((error.line, error.column) == (c.line, c.column), "\(c.text): \(error)")
                #expect(error.message.contains(c.saying), "\(c.text): \(error)")
            }
        }
    }

    @Test func sha256IsTheOneApolloClientsSend() {
        // FIPS 180-4's examples (one block, two blocks) and a message of many blocks, checked with Python's hashlib.
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
