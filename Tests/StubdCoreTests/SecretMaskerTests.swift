import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Secret values replaced in text and in any bytes (issue 23 item 8).
@Suite struct SecretMaskerTests {
    @Test func bytesThatAreNotUTF8AreSearchedToo() {
        let masker = SecretMasker([("tok-123", "<t>")])
        let body = Data([0xFF, 0x00]) + Data("tok-123".utf8) + Data([0xFE]) + Data("tok-123".utf8)
        #expect(masker.mask(body) == Data([0xFF, 0x00]) + Data("<t>".utf8) + Data([0xFE]) + Data("<t>".utf8))
    }

    @Test func theLongestValueGoesFirst() {
        let masker = SecretMasker([("abc", "<short>"), ("Bearer abcdef", "<long>")])
        #expect(masker.mask("Authorization: Bearer abcdef; abc") == "Authorization: <long>; <short>")
    }

    @Test func emptyValuesAreIgnoredAndNothingToMaskIsFree() {
        let masker = SecretMasker([("", "<x>")])
        #expect(masker.isEmpty)
        #expect(masker.mask("text") == "text")
    }

    @Test(arguments: [("key", true), ("wu_key", true), ("api-token", true), ("_k2", true), ("", false), ("2key", false),
                      ("../x", false), ("a/b", false), ("k y", false), ("ключ", false)])
    func aSecretNameIsAPlainIdentifier(name: String, plain: Bool) {
        #expect(SecretNames.isPlainIdentifier(name) == plain)
    }
}
