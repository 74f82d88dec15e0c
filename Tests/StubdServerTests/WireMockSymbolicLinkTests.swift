import Foundation
import StubdTestSupport
import Testing

/// `stubd import wiremock` reads nothing whose real path is outside the folder imported, whichever
/// path component is the symbolic link: a `__files` that was itself a link to `~/.ssh` copied
/// `id_rsa` into a stub served at `GET /key`.
@Suite struct WireMockSymbolicLinkTests {
    /// A scratch folder holding `outside/id_rsa` (the fake key) and `wiremock/mappings/key.json`.
    static func scratch() throws -> (wiremock: URL, outside: URL, stubs: URL) {
        let fm = FileManager.default
        let top = fm.temporaryDirectory.appendingPathComponent("wiremock-links-\(UUID().uuidString)")
        let outside = top.appendingPathComponent("outside"), wiremock = top.appendingPathComponent("wiremock")
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        try fm.createDirectory(at: wiremock.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n".utf8).write(to: outside.appendingPathComponent("id_rsa"))
        try Data(#"{"request": {"method": "GET", "url": "/key"}, "response": {"status": 200, "bodyFileName": "id_rsa"}}"#.utf8)
            .write(to: wiremock.appendingPathComponent("mappings/key.json"))
        return (wiremock, outside, top.appendingPathComponent("Stubs"))
    }

    /// `stubd import wiremock`: nil when it imported, else what it said on stderr.
    static func importing(_ wiremock: URL, into stubs: URL) throws -> String? {
        let r = try run(stubdBinary.path, ["import", "wiremock", wiremock.path, "--stubs", stubs.path])
        return r.status == 0 ? nil : r.error
    }

    static func filesIn(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
    }

    @Test func aFilesFolderThatIsALinkOutOfTheFolderCopiesNothingAndSaysWhy() throws {
        let (wiremock, outside, stubs) = try Self.scratch()
        try FileManager.default.createSymbolicLink(at: wiremock.appendingPathComponent("__files"), withDestinationURL: outside)
        let text = try Self.importing(wiremock, into: stubs) ?? "imported"
        #expect(text.contains("mappings/key.json:/response/bodyFileName: __files/id_rsa is a symbolic link, or inside one, that leads out of the folder imported"), "\(text)")
        #expect(text.contains("nothing written"), "\(text)")
        let copied = Self.filesIn(stubs).filter { file in
            (try? String(contentsOf: stubs.appendingPathComponent(file), encoding: .utf8))?.contains("OPENSSH") == true
        }
        #expect(copied.isEmpty, "the key was copied into \(copied)")
    }

    @Test func aMappingsFolderThatIsALinkOutOfTheFolderIsRefusedToo() throws {
        let (wiremock, outside, stubs) = try Self.scratch()
        let elsewhere = outside.appendingPathComponent("mappings")
        try FileManager.default.moveItem(at: wiremock.appendingPathComponent("mappings"), to: elsewhere)
        try FileManager.default.createSymbolicLink(at: wiremock.appendingPathComponent("mappings"), withDestinationURL: elsewhere)
        let text = try Self.importing(wiremock, into: stubs) ?? "imported"
        #expect(text.contains("leads out of the folder imported"), "\(text)")
    }

    /// A link that stays inside the folder is followed as before.
    @Test func aLinkInsideTheFolderIsFollowed() throws {
        let (wiremock, outside, stubs) = try Self.scratch()
        let bodies = wiremock.appendingPathComponent("bodies")
        try FileManager.default.createDirectory(at: bodies, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: outside.appendingPathComponent("id_rsa"), to: bodies.appendingPathComponent("id_rsa"))
        try FileManager.default.createSymbolicLink(at: wiremock.appendingPathComponent("__files"), withDestinationURL: bodies)
        let error = try Self.importing(wiremock, into: stubs)
        #expect(error == nil, "\(error ?? "")")
    }
}
