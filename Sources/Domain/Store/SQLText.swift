/// SQL text as a statement-cache key. The hash reads the length and three 8-byte pieces (start, middle,
/// end) rather than every byte: a lookup happens for every statement run, the keys are the program's own
/// SQL (not chosen by clients), and two texts that share those pieces only cost an equality check, which
/// is instant for the same string object (as the callers' constants are).
struct SQLText: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (left: SQLText, right: SQLText) -> Bool {
        left.text == right.text
    }

    func hash(into hasher: inout Hasher) {
        var copy = text
        copy.withUTF8 { bytes in
            hasher.combine(bytes.count)
            guard bytes.count >= 8, let base = bytes.baseAddress else {
                for byte in bytes { hasher.combine(byte) }
                return
            }
            let raw = UnsafeRawPointer(base)
            hasher.combine(raw.loadUnaligned(as: UInt64.self))
            hasher.combine(raw.loadUnaligned(fromByteOffset: bytes.count / 2 - 4, as: UInt64.self))
            hasher.combine(raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
    }
}
