import Foundation

/// The `Encoder` side of `AdminJSONWriter`: Codable's containers, each writing through the one
/// writer in document order. Coding paths are not tracked (nothing here reports them).
struct AdminJSONEncoder: Encoder {
    let writer: AdminJSONWriter
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(writer: writer, id: writer.openContainer(isObject: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        Unkeyed(writer: writer, id: writer.openContainer(isObject: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(writer: writer) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let writer: AdminJSONWriter
        let id: Int
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeNull() }
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeValue(value) }
        }
        mutating func encode(_ value: String, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeString(value) }
        }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeFloatingPoint(value) }
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: Int8, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: Int16, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: Int32, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: Int64, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: UInt, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: UInt8, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: UInt16, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: UInt32, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: UInt64, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeFloatingPoint(value) }
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if writer.beginItem(of: id, key: key.stringValue) { writer.writeValue(value) }
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            _ = writer.beginItem(of: id, key: key.stringValue)
            return KeyedEncodingContainer(Keyed<NestedKey>(writer: writer, id: writer.openContainer(isObject: true)))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            _ = writer.beginItem(of: id, key: key.stringValue)
            return Unkeyed(writer: writer, id: writer.openContainer(isObject: false))
        }
        mutating func superEncoder() -> any Encoder { writer.fail(); return AdminJSONEncoder(writer: writer) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { writer.fail(); return AdminJSONEncoder(writer: writer) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let writer: AdminJSONWriter
        let id: Int
        var codingPath: [any CodingKey] { [] }
        var count: Int { writer.count(of: id) }

        mutating func encodeNil() throws {
            if writer.beginItem(of: id, key: nil) { writer.writeNull() }
        }
        mutating func encode(_ value: String) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeString(value) }
        }
        mutating func encode(_ value: Int) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: Int8) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: Int16) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: Int32) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: Int64) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: UInt) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: UInt8) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: UInt16) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: UInt32) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: UInt64) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeInteger(value) }
        }
        mutating func encode(_ value: Bool) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeValue(value) }
        }
        mutating func encode(_ value: Double) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeFloatingPoint(value) }
        }
        mutating func encode(_ value: Float) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeFloatingPoint(value) }
        }
        mutating func encode<T: Encodable>(_ value: T) throws {
            if writer.beginItem(of: id, key: nil) { writer.writeValue(value) }
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            _ = writer.beginItem(of: id, key: nil)
            return KeyedEncodingContainer(Keyed<NestedKey>(writer: writer, id: writer.openContainer(isObject: true)))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            _ = writer.beginItem(of: id, key: nil)
            return Unkeyed(writer: writer, id: writer.openContainer(isObject: false))
        }
        mutating func superEncoder() -> any Encoder { writer.fail(); return AdminJSONEncoder(writer: writer) }
    }

    struct Single: SingleValueEncodingContainer {
        let writer: AdminJSONWriter
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { writer.writeNull() }
        mutating func encode(_ value: Bool) throws { writer.writeValue(value) }
        mutating func encode(_ value: String) throws { writer.writeString(value) }
        mutating func encode(_ value: Double) throws { writer.writeFloatingPoint(value) }
        mutating func encode(_ value: Float) throws { writer.writeFloatingPoint(value) }
        mutating func encode(_ value: Int) throws { writer.writeInteger(value) }
        mutating func encode(_ value: Int8) throws { writer.writeInteger(value) }
        mutating func encode(_ value: Int16) throws { writer.writeInteger(value) }
        mutating func encode(_ value: Int32) throws { writer.writeInteger(value) }
        mutating func encode(_ value: Int64) throws { writer.writeInteger(value) }
        mutating func encode(_ value: UInt) throws { writer.writeInteger(value) }
        mutating func encode(_ value: UInt8) throws { writer.writeInteger(value) }
        mutating func encode(_ value: UInt16) throws { writer.writeInteger(value) }
        mutating func encode(_ value: UInt32) throws { writer.writeInteger(value) }
        mutating func encode(_ value: UInt64) throws { writer.writeInteger(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { writer.writeValue(value) }
    }
}
