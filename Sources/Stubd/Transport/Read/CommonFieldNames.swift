import Foundation
import HTTPTypes

/// The header names nearly every request carries, as clients spell them, each made into an
/// `HTTPField.Name` once. Reading a head made every name anew: a `String`, a validity scan and a
/// lowercased copy per header, ~1,600 of the handler's ~20,400 instructions per plain request for
/// the two names Python's client sends (callgrind, `Benchmarks/instructions.sh`, main c204dac). A
/// name not in the list, or spelt otherwise, is made as before; either way the name is the one
/// `HTTPField.Name(text)` gives, raw spelling kept.
enum CommonFieldNames {
    /// Title case as browsers, curl, URLSession, Python and wrk send them; lower case as HTTP/2-era
    /// clients and some libraries do.
    private static let spellings = [
        "Host", "Accept", "Accept-Encoding", "Accept-Language", "User-Agent", "Connection", "Content-Type",
        "Content-Length", "Authorization", "Cookie", "Cache-Control", "If-None-Match", "If-Modified-Since",
        "Origin", "Referer", "Keep-Alive", "X-Stubd-Session", "Upgrade", "Expect", "Pragma",
        "host", "accept", "accept-encoding", "accept-language", "user-agent", "connection", "content-type",
        "content-length", "authorization", "cookie", "cache-control",
    ]
    private static let table: [(bytes: [UInt8], name: HTTPField.Name)] = spellings.map { (Array($0.utf8), HTTPField.Name($0)!) }

    /// The prepared name spelt exactly as `bytes`, or nil.
    static func name(_ bytes: UnsafeRawBufferPointer) -> HTTPField.Name? {
        guard let base = bytes.baseAddress else { return nil }
        for entry in table where entry.bytes.count == bytes.count {
            if entry.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, base, bytes.count) }) == 0 { return entry.name }
        }
        return nil
    }
}
