/// A JSON value as it travels on the wire: the protocol layer's only data model.
///
/// Integers that fit in `Int64` are kept exactly as `.integer`; every other number is a `.number`.
/// Objects keep their members in the order they were written (see ``JSONObject``).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
    /// A value already written as compact JSON text by a fast encoder (see ``EncodedJSON``). Only the
    /// writer looks inside; use ``expanded`` to get a tree back.
    case encoded(EncodedJSON)
}

/// JSON text that an encoder wrote straight into bytes, skipping the value tree: for large or frequent
/// results (an entity, a page of them) this saves building and freeing a tree that is only written out.
public struct EncodedJSON: Sendable, Hashable {
    /// The writer that holds the text (kept as it is, so writing it out again is a single copy).
    private let writer: JSONWriter

    /// Compact JSON text of one value (a copy).
    public var bytes: [UInt8] { writer.bytes }

    /// Takes what `writer` wrote; the caller guarantees it is one complete JSON value.
    public init(_ writer: JSONWriter) {
        self.writer = writer
    }

    /// Text that another encoder wrote; the caller guarantees it is one complete, compact JSON value.
    public init(validJSON bytes: [UInt8]) {
        var writer = JSONWriter(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { writer.writeRaw(bytes: $0) }
        self.writer = writer
    }

    /// Writes one value with `body` and keeps the text.
    public init(capacity: Int = 256, _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter(capacity: capacity)
        body(&writer)
        self.writer = writer
    }

    /// Calls `body` with the text, without copying it.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try writer.withUnsafeBytes(body)
    }

    public static func == (left: EncodedJSON, right: EncodedJSON) -> Bool {
        left.withUnsafeBytes { a in right.withUnsafeBytes { b in a.elementsEqual(b) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension JSONValue {
    /// The string, when this value is one.
    @inlinable public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this value is one (a `.number` with an integral value in range counts too).
    @inlinable public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .number(let value):
            guard value.rounded() == value, let exact = Int64(exactly: value) else { return nil }
            return exact
        default: return nil
        }
    }

    /// The number as a `Double`, for `.integer` and `.number`.
    @inlinable public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The Boolean, when this value is one.
    @inlinable public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this value is an array.
    @inlinable public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this value is an object.
    @inlinable public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `.null`.
    @inlinable public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The JSON type name used in error reports and schemas (`"string"`, `"integer"`, ...).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        case .encoded: return expanded.typeName
        }
    }

    /// This value with every ``encoded(_:)`` part parsed back into a tree (for code that inspects results).
    public var expanded: JSONValue {
        switch self {
        case .encoded(let encoded):
            return (try? encoded.withUnsafeBytes { raw throws(JSONParseError) in try JSONParser.parse(raw, maximumDepth: Int.max) }) ?? .null
        case .array(let elements):
            return .array(elements.map(\.expanded))
        case .object(let object):
            return .object(JSONObject(uniqueMembers: object.members.map { ($0.key, $0.value.expanded) }))
        default:
            return self
        }
    }

    /// Member lookup for objects; `nil` for anything else.
    @inlinable public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        assert(Set(elements.map(\.0)).count == elements.count, "duplicate key in a JSON object literal")
        self = .object(JSONObject(uniqueMembers: elements.map { (key: $0.0, value: $0.1) }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of this value.
    public var description: String { JSONWriter.string(self) }
}
