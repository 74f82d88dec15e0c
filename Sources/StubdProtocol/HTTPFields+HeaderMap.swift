import HTTPTypes

// The manifest and the runtime stub document write headers as a map, name → one value. These
// read and write HTTPFields in that shape, so the wire keeps it.
extension HTTPFields {
    /// A name given twice goes on the wire once, its values joined with ", " (RFC 9110 §5.3): a
    /// map holds one value per name.
    package func encodeAsHeaderMap(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: HeaderMapKey.self)
        var seen: Set<HTTPField.Name> = []
        for field in self where seen.insert(field.name).inserted {
            try c.encode(self[values: field.name].joined(separator: ", "), forKey: HeaderMapKey(field.name.rawName))
        }
    }

    /// Throws on a name that is not an HTTP token, rather than dropping the header.
    package init(headerMapFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: HeaderMapKey.self)
        self.init()
        for key in c.allKeys {
            guard let name = HTTPField.Name(key.stringValue) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "'\(key.stringValue)' is not a header name")
            }
            append(HTTPField(name: name, value: try c.decode(String.self, forKey: key)))
        }
    }
}

private struct HeaderMapKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}
