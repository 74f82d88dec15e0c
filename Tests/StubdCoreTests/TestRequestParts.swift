import HTTPTypes
@testable import StubdCore
@testable import StubdEngine

/// `["Host": "127.0.0.1", "Authorization": "Bearer t"]` as HTTPFields, in the order written (a
/// name may repeat). Test names are always valid header names.
func fields(_ pairs: KeyValuePairs<String, String>) -> HTTPFields {
    HTTPFields(pairs.map { HTTPField(name: HTTPField.Name($0.key)!, value: $0.value) })
}

/// `["units": "metric", "debug": nil]` as a request's query, in the order written.
func queryItems(_ pairs: KeyValuePairs<String, String?>) -> [QueryItem] {
    pairs.map { QueryItem(name: $0.key, value: $0.value) }
}

/// `a=1&b&c=` as a request's query: `b` is a flag (no value), `c` is empty.
func queryItems(parsing text: Substring) -> [QueryItem] {
    text.split(separator: "&").map { item in
        let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return QueryItem(name: String(kv[0]), value: kv.count > 1 ? String(kv[1]) : nil)
    }
}
