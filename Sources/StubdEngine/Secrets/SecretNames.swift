/// The names that carry credentials by convention, in any case: the recorder never writes their
/// values, and the journal and the log never show them.
package enum SecretNames {
    /// Request headers whose values are credentials, as `record --help` and the docs spell them
    /// (docs/recording-and-drift.md is checked against this list).
    package static let headerNames = ["Authorization", "Cookie", "Proxy-Authorization", "X-Api-Key", "X-Auth-Token", "Private-Token"]
    /// Query, form and JSON field names whose values are credentials or signatures over them.
    package static let parameterNames = ["appid", "api_key", "apikey", "key", "token", "access_token", "refresh_token", "id_token",
                                         "secret", "client_secret", "password", "passwd", "sig", "signature"]
    /// `headerNames`, lower-cased, for lookups.
    package static let headers = Set(headerNames.map { $0.lowercased() })
    /// `parameterNames` as `normalized` spells them.
    package static let parameters = Set(parameterNames.map(normalized))

    /// `accessToken`, `access_token`, `Access-Token` → `accesstoken`: one name however an API or a
    /// client library spells it (Apple's and Google's JSON is camelCase, OAuth's snake_case), so a
    /// credential is not shown because its field was spelt another way.
    package static func normalized(_ name: String) -> String {
        String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != "." && $0 != " " }))
    }

    /// `A, B and C`: how help and log lines list names.
    package static func listed(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    package static func isSecretHeader(_ name: String) -> Bool { headers.contains(name.lowercased()) }
    /// `Bearer abc` → `abc`: the credential of an `Authorization`-style value without its scheme,
    /// which an answer or a path may show alone; nil when the value has no scheme.
    package static func credential(afterScheme value: String) -> String? {
        guard let space = value.firstIndex(of: " ") else { return nil }
        return String(value[value.index(after: space)...])
    }

    /// In any case, with or without `_`, `-` or `.` between words (`normalized`).
    package static func isSecretParameter(_ name: String) -> Bool { parameters.contains(normalized(name)) }

    /// A plain identifier (`key`, `wu_key`, `api-token`): what `--secret NAME=…` and a `{NAME}` path
    /// segment accept. Anything else could name a path (`../x`) when it becomes part of a file name.
    package static func isPlainIdentifier(_ name: String) -> Bool {
        func isLetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" }
        guard let first = name.unicodeScalars.first, isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
