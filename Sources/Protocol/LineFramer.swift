#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into newline-terminated lines: a pure state machine fed chunks of any size.
///
/// A `\r` before the `\n` is dropped; lines that hold only white space are skipped. A line longer than
/// ``maximumLineBytes`` is reported once as ``Event/lineTooLong`` and its bytes are discarded up to the next
/// newline, so memory stays bounded by the limit whatever the client sends.
public struct LineFramer: Sendable {
    /// What the framer found in the stream.
    public enum Event {
        /// A complete line without its terminator. The buffer is valid only during the callback.
        case line(UnsafeRawBufferPointer)
        /// A line exceeded the limit; it has been (or is being) skipped.
        case lineTooLong
    }

    /// The longest line accepted, in bytes, not counting the terminator.
    public let maximumLineBytes: Int
    /// The partial line carried over from earlier chunks.
    private var pending: [UInt8] = []
    /// Whether the rest of the current line is being thrown away.
    private var skipping = false

    /// A framer that accepts lines of up to `maximumLineBytes` bytes.
    public init(maximumLineBytes: Int) {
        precondition(maximumLineBytes > 0)
        self.maximumLineBytes = maximumLineBytes
    }

    /// How many bytes of an unfinished line are held (never more than the limit plus one).
    public var bufferedByteCount: Int { pending.count }

    /// Feeds `chunk`, calling `handle` for each event in stream order.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ handle: (Event) -> Void) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        while start < bytes.count {
            guard let newline = Self.firstNewline(in: bytes, from: start) else {
                // No terminator in the rest of this chunk: hold on to it (within the limit).
                let rest = bytes.count - start
                if skipping { return }
                if pending.count + rest > maximumLineBytes + 1 {
                    // The +1 leaves room for a trailing `\r` that the next chunk's `\n` would strip.
                    pending.removeAll(keepingCapacity: false)
                    skipping = true
                    handle(.lineTooLong)
                    return
                }
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
                return
            }
            if skipping {
                skipping = false
            } else if pending.isEmpty {
                emit(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<newline]), handle)
            } else {
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<newline]))
                let line = pending
                pending.removeAll(keepingCapacity: pending.capacity <= 1 << 16)
                line.withUnsafeBytes { raw in emit(raw, handle) }
            }
            start = newline + 1
        }
    }

    /// Feeds an array of bytes (convenient in tests).
    public mutating func feed(_ chunk: [UInt8], _ handle: (Event) -> Void) {
        chunk.withUnsafeBytes { raw in feed(raw, handle) }
    }

    /// Ends the stream: a last line without a terminator is delivered as if it had one.
    public mutating func finish(_ handle: (Event) -> Void) {
        defer {
            pending = []
            skipping = false
        }
        guard !skipping, !pending.isEmpty else { return }
        let line = pending
        line.withUnsafeBytes { raw in emit(raw, handle) }
    }

    private func emit(_ line: UnsafeRawBufferPointer, _ handle: (Event) -> Void) {
        var end = line.count
        if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if end > maximumLineBytes {
            handle(.lineTooLong)
            return
        }
        var blank = true
        for index in 0..<end {
            switch line[index] {
            case 0x20, 0x09, 0x0D: continue
            default: blank = false
            }
            break
        }
        if blank { return }
        handle(.line(UnsafeRawBufferPointer(rebasing: line[0..<end])))
    }

    @inline(__always)
    private static func firstNewline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        guard let found = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) else { return nil }
        return bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
