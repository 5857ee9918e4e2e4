#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON reader that parses straight from UTF-8 bytes into ``JSONValue``.
///
/// It validates UTF-8 once up front, so string bodies without escapes become `String`s without a second
/// check. Integers that fit in `Int64` stay exact; lone surrogate escapes and nesting deeper than
/// ``maximumDepth`` are rejected.
///
/// A value tree can take far more memory than its text: `[{},{},…]` is 3 bytes an element on the wire and
/// 24 in the tree, `[{"a":0},…]` 8 bytes and more than 200. So the parser keeps an estimate of what the
/// tree it is building takes (see ``Cost``), and stops with ``JSONParseError/Kind/tooComplex`` once that
/// passes `maximumValueBytes`.
public struct JSONParser {
    /// How deeply arrays and objects may nest (the outermost container is depth 1).
    public static let defaultMaximumDepth = 64

    /// Parses one JSON text (surrounding white space allowed) from `bytes`; the tree may take about
    /// `maximumValueBytes` of memory (unlimited by default).
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, maximumDepth: Int = defaultMaximumDepth, maximumValueBytes: Int = .max
    ) throws(JSONParseError) -> JSONValue {
        let buffer = bytes.bindMemory(to: UInt8.self)
        if let bad = UTF8Validation.firstInvalidOffset(in: buffer) {
            throw JSONParseError(.invalidUTF8, at: bad, "invalid UTF-8")
        }
        guard buffer.baseAddress != nil, !buffer.isEmpty else {
            throw JSONParseError(.syntax, at: 0, "unexpected end of input")
        }
        var parser = JSONParser(buffer: buffer, maximumDepth: maximumDepth, maximumValueBytes: maximumValueBytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.count else {
            throw parser.error("unexpected data after the JSON value")
        }
        return value
    }

    /// Parses one JSON text from an array of bytes.
    public static func parse(
        _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth, maximumValueBytes: Int = .max
    ) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) in
                try parse(raw, maximumDepth: maximumDepth, maximumValueBytes: maximumValueBytes)
            }
        }
        return try result.get()
    }

    /// Parses one JSON text from a string.
    public static func parse(
        _ text: String, maximumDepth: Int = defaultMaximumDepth, maximumValueBytes: Int = .max
    ) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maximumDepth: maximumDepth, maximumValueBytes: maximumValueBytes)
    }

    /// The input, read without bounds checks: every access is preceded by a `position < count` test. Not
    /// private, nor are the steps below: the parts of the parser in other files (numbers, the usual request)
    /// use them too.
    let buffer: UnsafePointer<UInt8>
    let count: Int
    private let maximumDepth: Int
    var position = 0
    /// What the tree built so far takes (an estimate, see ``Cost``), and how much it may take.
    private var valueBytes = 0
    private let maximumValueBytes: Int

    init(buffer: UnsafeBufferPointer<UInt8>, maximumDepth: Int, maximumValueBytes: Int) {
        self.buffer = buffer.baseAddress!
        self.count = buffer.count
        self.maximumDepth = maximumDepth
        self.maximumValueBytes = maximumValueBytes
    }

    /// Counts `bytes` more of tree; past the budget, parsing stops.
    @inline(__always) mutating func charge(_ bytes: Int) throws(JSONParseError) {
        valueBytes &+= bytes
        if valueBytes > maximumValueBytes {
            throw JSONParseError(
                .tooComplex, at: position, "the value would take more than \(maximumValueBytes) bytes of memory")
        }
    }

    func error(_ detail: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(.syntax, at: offset ?? position, detail)
    }

    @inline(__always) mutating func skipWhitespace() {
        while position < count {
            switch buffer[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < count else { throw error("unexpected end of input") }
        switch buffer[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let length = literal.utf8CodeUnitCount
        guard position + length <= count else { throw error("unexpected end of input") }
        let text = literal.utf8Start
        for index in 0..<length where buffer[position + index] != text[index] {
            throw error("invalid literal")
        }
        position += length
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else {
            throw JSONParseError(.tooDeep, at: position, "nesting deeper than \(maximumDepth)")
        }
        position += 1  // {
        skipWhitespace()
        if position < count, buffer[position] == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject())
        }
        try charge(Cost.storage + 4 * Cost.member)
        var members: [JSONObject.Member] = []
        members.reserveCapacity(4)  // the envelope and most params: one allocation, not three
        var seen: Set<String>? = nil
        while true {
            guard position < count else { throw error("unexpected end of input in object") }
            guard buffer[position] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            // Charged as if the member were new (a repeated key is charged again: an overestimate).
            if members.count == members.capacity {
                try charge(Cost.growth(capacity: members.capacity, stride: Cost.member))
            }
            if members.count >= 16 { try charge(members.count == 16 ? 17 * Cost.memberName : Cost.memberName) }
            let key = try parseString()
            skipWhitespace()
            guard position < count, buffer[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after a member name")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            // A repeated key keeps its last value (in its first place). Small objects scan; large ones hash.
            if members.count < 16 {
                if let index = members.firstIndex(where: { $0.key == key }) {
                    members[index].value = value
                } else {
                    members.append((key, value))
                }
            } else {
                if seen == nil { seen = Set(members.map(\.key)) }
                if seen!.insert(key).inserted {
                    members.append((key, value))
                } else if let index = members.firstIndex(where: { $0.key == key }) {
                    members[index].value = value
                }
            }
            skipWhitespace()
            guard position < count else { throw error("unexpected end of input in object") }
            switch buffer[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                return .object(JSONObject(uniqueMembers: members))
            default:
                throw error("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else {
            throw JSONParseError(.tooDeep, at: position, "nesting deeper than \(maximumDepth)")
        }
        position += 1  // [
        skipWhitespace()
        var elements: [JSONValue] = []
        if position < count, buffer[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            if elements.count == elements.capacity {
                try charge(Cost.growth(capacity: elements.capacity, stride: Cost.element))
            }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < count else { throw error("unexpected end of input in array") }
            switch buffer[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default:
                throw error("expected ',' or ']' in array")
            }
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes (the plain part is found 8 bytes at a time).
        position = JSONStringBytes.firstSpecial(in: buffer, from: position, count: count)
        if position < count {
            let byte = buffer[position]
            if byte == UInt8(ascii: "\"") {
                try charge(Cost.string(position - start))
                let text = Self.string(UnsafeBufferPointer(start: buffer + start, count: position - start), readable: count - start)
                position += 1
                return text
            }
            if byte < 0x20 { throw error("control character in string") }
        }
        guard position < count else { throw error("unterminated string") }
        var bytes = [UInt8](UnsafeBufferPointer(start: buffer + start, count: position - start))
        while position < count {
            let byte = buffer[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                try charge(Cost.string(bytes.count))
                return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                guard position < count else { throw error("unterminated escape") }
                let escaped = buffer[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "/"): bytes.append(0x2F)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape(to: &bytes)
                default: throw error("invalid escape", at: position - 1)
                }
            default:
                if byte < 0x20 { throw error("control character in string") }
                bytes.append(byte)
                position += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = buffer[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func appendUnicodeEscape(to bytes: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = position - 2
        var scalar = try readHex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard position + 2 <= count, buffer[position] == UInt8(ascii: "\\"),
                buffer[position + 1] == UInt8(ascii: "u")
            else { throw error("lone high surrogate escape", at: escapeStart) }
            position += 2
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("high surrogate escape not followed by a low one", at: escapeStart)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("lone low surrogate escape", at: escapeStart)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape", at: escapeStart) }
        bytes.append(contentsOf: UTF8.encode(unicode)!)
    }

    /// The envelope's member names and version as ``load(_:readable:)`` reads them: the bytes,
    /// little-endian (a string here has no zero byte, so the value also says its length).
    enum Word {
        static let jsonrpc: UInt64 = 0x63_7072_6e6f_736a
        static let version: UInt64 = 0x30_2e32  // "2.0"
        static let id: UInt64 = 0x6469
        static let method: UInt64 = 0x646f_6874_656d
        static let params: UInt64 = 0x736d_6172_6170
        static let result: UInt64 = 0x746c_7573_6572
        static let error: UInt64 = 0x72_6f72_7265
    }

    /// The envelope's member names and version, which every message repeats: matched as one 64-bit load
    /// and returned as literals, without building or retaining a string.
    @inline(__always) private static func interned(_ bits: UInt64) -> String? {
        switch bits {
        case Word.jsonrpc: "jsonrpc"
        case Word.version: "2.0"
        case Word.id: "id"
        case Word.method: "method"
        case Word.params: "params"
        case Word.result: "result"
        case Word.error: "error"
        default: nil
        }
    }

    /// The bytes (at most 7) as a little-endian integer; `readable` says how many bytes from their start
    /// may be read (8 or more: one load, masked).
    @inline(__always) static func load(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int) -> UInt64 {
        if readable >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(as: UInt64.self))
            return word & ((1 << (8 * UInt64(bytes.count))) &- 1)
        }
        var bits: UInt64 = 0
        for index in 0..<bytes.count { bits |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        return bits
    }

    @inline(__always) private static func string(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int) -> String {
        if bytes.count <= 7, let text = interned(load(bytes, readable: readable)) {
            return text
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
