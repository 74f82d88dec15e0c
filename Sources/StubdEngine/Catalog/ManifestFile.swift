/// The names of the files that configure a Stubs folder rather than answer a request, kept in one
/// place (the catalog, the convention scanner, the file reader and the recorder each had a copy).
package enum ManifestFile {
    /// The hand-written manifest's names, in the order stubd prefers them when a folder has several.
    static let names = ["stubd.yml", "stubd.yaml", "stubd.json"]
    /// The manifest `stubd record` writes beside it.
    package static let recorded = "stubd.recorded.yml"
}
