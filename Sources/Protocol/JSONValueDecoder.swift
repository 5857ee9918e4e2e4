/// Decodes a `Decodable` type straight from a parsed ``JSONValue``, so a value that arrived in a message is
/// read once: never written back to text to be parsed again. Failures are `DecodingError`s carrying the
/// coding path, as Foundation's `JSONDecoder` reports them.
public struct JSONValueDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: []).decode(type)
    }
}

/// One value being decoded, at its place in the document.
private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch(_ type: Any.Type, _ what: String) -> DecodingError {
        .typeMismatch(type, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(what)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value.expanded else { throw mismatch([String: Any].self, "an object") }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value.expanded else { throw mismatch([Any].self, "an array") }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// `T` from this value: JSON's own types directly, anything else through its `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type:
            guard let text = value.stringValue else { throw mismatch(type, "a string") }
            return text as! T
        case is Bool.Type:
            guard let flag = value.boolValue else { throw mismatch(type, "true or false") }
            return flag as! T
        case is Double.Type:
            guard let number = value.doubleValue else { throw mismatch(type, "a number") }
            return number as! T
        case is Float.Type:
            guard let number = value.doubleValue else { throw mismatch(type, "a number") }
            return Float(number) as! T
        case let integer as any FixedWidthInteger.Type:
            guard let whole = value.integerValue, let fitted = integer.init(exactly: whole) else {
                throw mismatch(type, "a whole number that fits \(type)")
            }
            return fitted as! T
        default:
            return try T(from: self)
        }
    }
}

/// The generic `decode(_:)` above stands for every primitive `decode` of the protocol.
extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }
}

/// A key of an array's element, for coding paths (`[3]`).
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.orderedKeys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func child(_ key: Key) throws -> ValueDecoder {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no member \(key.stringValue)"))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let child = try child(key)
        guard child.value != .null || T.self is any ExpressibleByNilLiteral.Type else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: child.codingPath, debugDescription: "null"))
        }
        return try child.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(object), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> ValueDecoder {
        let path = codingPath + [IndexKey(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self, DecodingError.Context(codingPath: path, debugDescription: "past the end of the array"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], codingPath: path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let element = try next()
        guard element.value != .null || T.self is any ExpressibleByNilLiteral.Type else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: element.codingPath, debugDescription: "null"))
        }
        return try element.decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}
