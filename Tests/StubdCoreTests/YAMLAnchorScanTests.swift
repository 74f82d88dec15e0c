import Testing
@testable import StubdCore
import StubdCoreTestSupport

@Suite struct YAMLAnchorScanTests {
    @Test(arguments: [
        "appid: \"*\"\nroutes: [\"GET /api/{key}/**\"]",
        "path: /api/**\nbody: a & b\nx: 2 * 3",
        "# a comment with *star and &amp\nk: v # trailing *x",
        "body: |\n  *bold* and &amp\n  - *item\nnext: 1",
        "{\"request\": {\"path\": \"/a\"}, \"response\": {\"body\": \"*x &y\"}}",
        "q: 'it''s *not* an alias'",
        "- >-\n    &folded text\n- plain",
    ])
    func leavesTextThatOnlyLooksLikeAnAliasAlone(text: String) {
        #expect(YAMLAnchors.first(in: text) == nil, "\(text)")
    }

    @Test(arguments: [
        ("a: &x 1\nb: *x", 1, 4, false),
        ("list: [1, *x]", 1, 11, true),
        ("k: !!str &t v", 1, 10, false),
        ("body: |\n  text\nb: *z", 3, 4, true),
    ])
    func findsAnchorsAndAliases(text: String, line: Int, column: Int, isAlias: Bool) {
        let found = YAMLAnchors.first(in: text)
        #expect(found?.line == line && found?.column == column && found?.isAlias == isAlias, "\(text): \(String(describing: found))")
    }
}
