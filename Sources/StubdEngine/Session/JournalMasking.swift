/// What the journal hides when it shows a request: the values of credential headers and query
/// parameters (by name, `SecretNames`, plus `--mask-header`), wherever else those values appear in
/// the entry, and the values given as `--secret NAME=VALUE` anywhere (shown as `<NAME>`).
package struct JournalMasking: Sendable {
    /// Lower-cased names of request headers whose values are masked.
    package let headers: Set<String>
    /// `--secret` values, wherever they appear.
    package let secrets: SecretMasker

    package init(headers: [String] = [], secrets: [NamedSecret] = []) {
        self.headers = SecretNames.headers.union(headers.map { $0.lowercased() })
        self.secrets = SecretMasker(secrets.map { ($0.value, $0.placeholder) })
    }
}
