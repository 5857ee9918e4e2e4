/// Writes ``JSONValue``s as compact JSON into a growing byte buffer.
///
/// Strings are escaped minimally and correctly: `"` and `\`, the control characters below U+0020
/// (short forms where JSON has them), and nothing else; non-ASCII text is written as UTF-8.
/// Non-finite numbers, which JSON cannot express, are written as `null`.
///
/// The buffer is a raw allocation that doubles as it fills (an append is a capacity check and a copy),
/// shared copy-on-write between copies of a writer.
public struct JSONWriter: Sendable {
    // The appends below are inlinable: the entity writers in other modules call them a dozen times an
    // entity, and a call that is not inlined costs more than the append itself.
    @usableFromInline var storage: ByteStorage
    @usableFromInline var written = 0

    /// How many bytes have been written.
    public var count: Int { written }

    /// A writer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 256) {
        storage = ByteStorage(capacity: max(capacity, 16))
    }

    /// The bytes written so far (a copy).
    public var bytes: [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// Calls `body` with the bytes written so far, without copying them.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage.base, count: count))
    }

    /// Room for `extra` more bytes, owned by this writer alone; returns where they go.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(written + extra > storage.capacity || !isKnownUniquelyReferenced(&storage)) {
            grow(toHold: extra)
        }
        return storage.base + written
    }

    @usableFromInline @inline(never)
    mutating func grow(toHold extra: Int) {
        storage = storage.copy(count: written, capacity: Swift.max(storage.capacity * 2, written + extra))
    }

    @inlinable @inline(__always)
    mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let from = source.baseAddress, source.count > 0 else { return }
        reserve(source.count).update(from: from, count: source.count)
        written += source.count
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
    public mutating func removeAll() { written = 0 }

    /// Appends raw bytes that are already valid JSON (or framing, such as a newline).
    @inlinable @inline(__always)
    public mutating func writeRaw(_ raw: StaticString) {
        // Literals are stored as UTF-8 (`hasPointerRepresentation`); a one-scalar literal goes the slow way.
        guard raw.hasPointerRepresentation else { return raw.withUTF8Buffer { append($0) } }
        append(UnsafeBufferPointer(start: raw.utf8Start, count: raw.utf8CodeUnitCount))
    }

    /// Lets `body` write up to `maximum` bytes straight into the buffer; it returns how many it wrote.
    @inlinable @inline(__always)
    public mutating func writeDirectly(maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let added = body(reserve(maximum))
        precondition(added <= maximum, "wrote past the room it asked for")
        written += added
    }

    /// Appends one raw byte.
    @inlinable @inline(__always)
    public mutating func writeByte(_ byte: UInt8) {
        reserve(1).pointee = byte
        written += 1
    }

    /// Appends the compact JSON text of `value`.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let flag): if flag { writeRaw("true") } else { writeRaw("false") }
        case .integer(let number): write(integer: number)
        case .number(let number): write(number: number)
        case .string(let text): write(string: text)
        case .array(let elements):
            writeByte(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { writeByte(UInt8(ascii: ",")) }
                first = false
                write(element)
            }
            writeByte(UInt8(ascii: "]"))
        case .object(let object):
            writeByte(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object.members {
                if !first { writeByte(UInt8(ascii: ",")) }
                first = false
                write(string: key)
                writeByte(UInt8(ascii: ":"))
                write(member)
            }
            writeByte(UInt8(ascii: "}"))
        case .encoded(let encoded):
            encoded.withUnsafeBytes { append($0.bindMemory(to: UInt8.self)) }
        }
    }

    /// Appends bytes that are already valid JSON (or punctuation between members).
    @inlinable
    public mutating func writeRaw(bytes raw: UnsafeBufferPointer<UInt8>) {
        append(raw)
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
            writeByte(UInt8(ascii: "0") + UInt8(value))
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
            if value < 0 { writeByte(UInt8(ascii: "-")) }
            append(UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
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
        var text = value.description
        text.withUTF8 { append($0) }
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
                writeByte(UInt8(ascii: "\""))
                append(utf8)
                writeByte(UInt8(ascii: "\""))
                return
            }
        }
        _ = reserve(utf8.count + 2)
        writeByte(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = utf8.count
        let base = utf8.baseAddress
        while index < count {
            let byte = base.unsafelyUnwrapped[index]
            index += 1
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            if runStart < index - 1 {
                append(UnsafeBufferPointer(start: base.unsafelyUnwrapped + runStart, count: index - 1 - runStart))
            }
            runStart = index
            writeByte(UInt8(ascii: "\\"))
            switch byte {
            case 0x22: writeByte(0x22)
            case 0x5C: writeByte(0x5C)
            case 0x0A: writeByte(UInt8(ascii: "n"))
            case 0x0D: writeByte(UInt8(ascii: "r"))
            case 0x09: writeByte(UInt8(ascii: "t"))
            case 0x08: writeByte(UInt8(ascii: "b"))
            case 0x0C: writeByte(UInt8(ascii: "f"))
            default:
                let hex: StaticString = "0123456789abcdef"
                writeByte(UInt8(ascii: "u"))
                writeByte(UInt8(ascii: "0"))
                writeByte(UInt8(ascii: "0"))
                writeByte(hex.utf8Start[Int(byte >> 4)])
                writeByte(hex.utf8Start[Int(byte & 0xF)])
            }
        }
        if runStart < count, let base {
            append(UnsafeBufferPointer(start: base + runStart, count: count - runStart))
        }
        writeByte(UInt8(ascii: "\""))
    }
}

/// The raw allocation behind a ``JSONWriter``; only ever mutated by the single writer that owns it.
@usableFromInline
final class ByteStorage: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    /// A new allocation of `capacity` bytes holding the first `count` of these.
    @usableFromInline
    func copy(count: Int, capacity: Int) -> ByteStorage {
        let copy = ByteStorage(capacity: capacity)
        copy.base.update(from: base, count: count)
        return copy
    }
}
