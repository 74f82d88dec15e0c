/// One lexical token of a GraphQL document (spec, October 2021, §2.1): what the normaliser reads.
/// Ignored tokens (white space, line terminators, commas, comments, a byte order mark) never become one.
struct GraphQLToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// `! $ & ( ) ... : = @ [ ] { | }`, the text in `text`.
        case punctuator
        case name
        case int
        case float
        /// A string or a block string; `text` is its value (escapes resolved, block indentation removed),
        /// so `"a"` and `"""a"""` read alike.
        case string
        case end
    }

    let kind: Kind
    let text: String
    let line: Int
    let column: Int

    func `is`(_ punctuator: String) -> Bool { kind == .punctuator && text == punctuator }
}
