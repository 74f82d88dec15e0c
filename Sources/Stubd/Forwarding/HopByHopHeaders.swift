import Foundation
import HTTPTypes

/// Headers that describe one connection, not the message (RFC 9110 §7.6.1): a proxy neither passes
/// them on to the API nor relays them back to the client, which each have a connection of their own.
/// Both directions use this one list, plus the names a message's own `Connection` header lists.
enum HopByHopHeaders {
    /// Lower-case names, RFC 9110 §7.6.1 and the obsolete ones clients still send.
    static let names: Set<String> = ["connection", "proxy-connection", "keep-alive", "te", "transfer-encoding",
                                     "upgrade", "trailer", "proxy-authenticate", "proxy-authorization"]

    /// `names`, the names `headers`' own `Connection` field lists (`Connection: close, X-Hop`), and
    /// `also`: what one direction leaves out besides.
    static func leftOut(of headers: HTTPFields, also: Set<String>) -> Set<String> {
        var out = names.union(also)
        for value in headers[values: .connection] {
            for token in value.split(separator: ",") {
                let name = token.trimmingCharacters(in: .whitespaces).lowercased()
                if !name.isEmpty { out.insert(name) }
            }
        }
        return out
    }
}
