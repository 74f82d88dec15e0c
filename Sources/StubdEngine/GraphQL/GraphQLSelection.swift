/// One selection of a query's selection set, as the schema check walks it beside the answer: a field
/// (under its alias, the key the answer uses), a named fragment's spread, an inline fragment.
package indirect enum GraphQLSelection: Sendable, Hashable {
    /// `conditional`: under `@skip` or `@include`, so the answer may leave it out. `line`, `column`:
    /// where the field is written in the query (from 1), for a request's validation errors.
    case field(alias: String?, name: String, selections: [GraphQLSelection], conditional: Bool, line: Int, column: Int)
    case fragmentSpread(name: String, conditional: Bool)
    case inlineFragment(typeCondition: String?, selections: [GraphQLSelection], conditional: Bool)
}
