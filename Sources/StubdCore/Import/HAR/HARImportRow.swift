/// One line of the import's table: a request of the HAR and what became of it.
package struct HARImportRow: Sendable {
    package enum Kind: Sendable { case imported, alreadyThere, leftOut }

    /// The entry's number in the file, from 1 (a HAR viewer's count).
    package let number: Int
    package let method: String
    /// The path, secrets replaced, and the query's names only (values may be keys).
    package let target: String
    package let status: Int
    package let kind: Kind
    /// Where it came over (`data/2.5/weather.json`, `rec-39a8b86a in stubd.recorded.yml`), or why not.
    package let result: String
}
