import Foundation
import StubdEngine

/// Decodes a `Decodable` straight from a `JSONValue`, for OpenAPIKit's verdict on a spec
/// (`OpenAPIStructure`) without Foundation's `JSONDecoder`.
///
/// Why: OpenAPIKit reads each object's vendor extensions by decoding the whole object again as
/// `AnyCodable`, which tries `Bool`, `Int`, `UInt`, `Double`, `String` and an array before a
/// dictionary; with `JSONDecoder` each failed try builds a `DecodingError` with its coding path, and
/// on Twilio's api_v2010 that was most of the CPU `import`, `check --spec` and `serve --spec` spend
/// (issue 39's load bar). Here a failed read throws a bare `Mismatch` with no path (the coding path
/// is kept as a chain and made into keys only when OpenAPIKit asks for it, to build an error of its
/// own), so this decoder says only *whether* the document decodes: when it does not, the caller
/// decodes again with `JSONDecoder`, whose error names the place. It reads values as `JSONDecoder` reads the document serialized: a
/// number is an integer type's when it is whole and in range, a `Bool` only `true`/`false`, a
/// `String` only a string, `null` only `nil`.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let path: Path?

    var codingPath: [any CodingKey] { Path.keys(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// What every failed read throws: not a `DecodingError`, so OpenAPIKit passes it on as it is, and
    /// what failed is found again by `JSONDecoder`.
    struct Mismatch: Error {}
    static let mismatch = Mismatch()

    /// The keys from the root to a value, as a chain: each container adds a link, no array is built.
    final class Path {
        let parent: Path?
        let key: Key

        init(_ parent: Path?, _ key: Key) {
            self.parent = parent
            self.key = key
        }

        static func keys(_ path: Path?) -> [any CodingKey] {
            var keys: [any CodingKey] = []
            var link = path
            while let l = link {
                keys.append(l.key)
                link = l.parent
            }
            return keys.reversed()
        }
    }

    struct Key: CodingKey {
        let stringValue: String
        let intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue; self.intValue = nil }
        init(intValue: Int) { self.stringValue = "Index \(intValue)"; self.intValue = intValue }
    }

    func container<K: CodingKey>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> {
        guard case .object(let members) = value else { throw Self.mismatch }
        return KeyedDecodingContainer(Keyed<K>(members: members, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw Self.mismatch }
        return Unkeyed(items: items, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(value: value, path: path)
    }

    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try Single(value: value, path: nil).decode(type)
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let path: Path?
        var codingPath: [any CodingKey] { Path.keys(path) }
        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func member(_ key: Key) throws -> JSONValue {
            guard let value = members[key.stringValue] else { throw JSONValueDecoder.mismatch }
            return value
        }

        private func single(_ key: Key) throws -> Single {
            Single(value: try member(key), path: Path(path, JSONValueDecoder.Key(stringValue: key.stringValue)))
        }

        func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try single(key).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try single(key).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try single(key).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try single(key).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try single(key).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try single(key).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try single(key).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try single(key).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try single(key).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try single(key).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try single(key).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try single(key).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try single(key).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try single(key).decode(type) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try single(key).decode(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try single(key).decoder.container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try single(key).decoder.unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { throw JSONValueDecoder.mismatch }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw JSONValueDecoder.mismatch }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let items: [JSONValue]
        let path: Path?
        var currentIndex = 0
        var codingPath: [any CodingKey] { Path.keys(path) }
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [JSONValue], path: Path?) {
            self.items = items
            self.path = path
        }

        private func current() throws -> JSONValue {
            guard currentIndex < items.count else { throw JSONValueDecoder.mismatch }
            return items[currentIndex]
        }

        private func single() throws -> Single {
            Single(value: try current(), path: Path(path, JSONValueDecoder.Key(intValue: currentIndex)))
        }

        mutating func decodeNil() throws -> Bool {
            guard try current() == .null else { return false }
            currentIndex += 1
            return true
        }

        /// Like `JSONDecoder`'s, the index moves only past an item that decoded.
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let value = try single().decode(type)
            currentIndex += 1
            return value
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let container = try single().decoder.container(keyedBy: type)
            currentIndex += 1
            return container
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let container = try single().decoder.unkeyedContainer()
            currentIndex += 1
            return container
        }
        mutating func superDecoder() throws -> any Decoder { throw JSONValueDecoder.mismatch }
    }

    private struct Single: SingleValueDecodingContainer {
        let value: JSONValue
        let path: Path?
        var codingPath: [any CodingKey] { Path.keys(path) }
        var decoder: JSONValueDecoder { JSONValueDecoder(value: value, path: path) }

        func decodeNil() -> Bool { value == .null }

        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let b) = value else { throw JSONValueDecoder.mismatch }
            return b
        }
        func decode(_ type: String.Type) throws -> String {
            guard case .string(let s) = value else { throw JSONValueDecoder.mismatch }
            return s
        }
        func decode(_ type: Double.Type) throws -> Double {
            guard case .number(let n) = value else { throw JSONValueDecoder.mismatch }
            return n
        }
        func decode(_ type: Float.Type) throws -> Float {
            guard case .number(let n) = value, n.isFinite, abs(n) <= Double(Float.greatestFiniteMagnitude) else { throw JSONValueDecoder.mismatch }
            return Float(n)
        }
        private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            guard case .number(let n) = value, let i = T(exactly: n) else { throw JSONValueDecoder.mismatch }
            return i
        }
        func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            // JSONDecoder reads these from a string or a number, not as their own Codable conformances do.
            if type == URL.self {
                guard case .string(let s) = value, let url = URL(string: s) else { throw JSONValueDecoder.mismatch }
                return url as! T
            }
            if type == Decimal.self || type == Date.self || type == Data.self { throw JSONValueDecoder.mismatch }
            return try T(from: decoder)
        }
    }
}
