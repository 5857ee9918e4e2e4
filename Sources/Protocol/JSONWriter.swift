/// Writes ``JSONValue``s as compact JSON into a growing byte buffer.
///
/// Strings are escaped minimally and correctly: `"` and `\`, the control characters below U+0020
/// (short forms where JSON has them), and nothing else; non-ASCII text is written as UTF-8.
/// Non-finite numbers, which JSON cannot express, are written as `null`.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// A writer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The compact JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The compact JSON bytes of `value`.
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    /// Forgets what was written, keeping the capacity.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Appends raw bytes that are already valid JSON (or framing, such as a newline).
    public mutating func writeRaw(_ raw: StaticString) {
        raw.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends one raw byte.
    public mutating func writeByte(_ byte: UInt8) { bytes.append(byte) }

    /// Appends the compact JSON text of `value`.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let flag): if flag { writeRaw("true") } else { writeRaw("false") }
        case .integer(let number): write(integer: number)
        case .number(let number): write(number: number)
        case .string(let text): write(string: text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object.members {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(string: key)
                bytes.append(UInt8(ascii: ":"))
                write(member)
            }
            bytes.append(UInt8(ascii: "}"))
        case .encoded(let encoded):
            bytes.append(contentsOf: encoded.bytes)
        }
    }

    /// Appends bytes that are already valid JSON (or punctuation between members).
    public mutating func writeRaw(bytes raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Appends `"` + `raw` + `"`, for text known to need no escaping (such as a formatted timestamp).
    public mutating func writeQuotedRaw(bytes raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: raw)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a Boolean.
    public mutating func write(bool value: Bool) {
        if value { writeRaw("true") } else { writeRaw("false") }
    }

    /// Appends a string, or `null` for `nil`.
    public mutating func write(optionalString text: String?) {
        if let text { write(string: text) } else { writeRaw("null") }
    }

    /// Appends an integer in decimal.
    public mutating func write(integer value: Int64) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// Appends a floating-point number in its shortest round-tripping form, or `null` when not finite.
    public mutating func write(number value: Double) {
        guard value.isFinite else {
            writeRaw("null")
            return
        }
        // Whole numbers of moderate size (0.0, 1.0, 42.0: most colours and counts) skip the general formatter.
        if value.rounded(.towardZero) == value, abs(value) < 1e15, !(value == 0 && value.sign == .minus) {
            write(integer: Int64(value))
            writeRaw(".0")
            return
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Appends a quoted, escaped string.
    public mutating func write(string text: String) {
        if let done = text.utf8.withContiguousStorageIfAvailable({ write(utf8: $0) }) { return done }
        var copy = text
        copy.withUTF8 { write(utf8: $0) }
    }

    private mutating func write(utf8: UnsafeBufferPointer<UInt8>) {
        // Most text needs no escaping: find that out 8 bytes at a time, then copy it in one go.
        if let base = utf8.baseAddress {
            if JSONStringBytes.firstSpecial(in: base, from: 0, count: utf8.count) == utf8.count {
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: utf8)
                bytes.append(UInt8(ascii: "\""))
                return
            }
        }
        bytes.reserveCapacity(bytes.count + utf8.count + 2)
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = utf8.count
        let base = utf8.baseAddress
        while index < count {
            let byte = base.unsafelyUnwrapped[index]
            index += 1
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            if runStart < index - 1 {
                bytes.append(contentsOf: UnsafeBufferPointer(start: base.unsafelyUnwrapped + runStart, count: index - 1 - runStart))
            }
            runStart = index
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case 0x22: bytes.append(0x22)
            case 0x5C: bytes.append(0x5C)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                let hex: StaticString = "0123456789abcdef"
                bytes.append(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0xF)])
            }
        }
        if runStart < count, let base {
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
