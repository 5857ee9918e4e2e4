/// The bytes that end the plain part of a JSON string, in both directions: below 0x20 (control
/// characters), `"` and `\`. Strings are checked for them 8 bytes at a time.
enum JSONStringBytes {
    /// Whether any of the 8 bytes in `word` is one of them. Exact (no false positives): the classic "has a
    /// byte less than n" and "has a zero byte" bit tricks.
    @inline(__always)
    static func anySpecial(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quotes = (quote &- ones) & ~quote & highs
        let backslashes = (backslash &- ones) & ~backslash & highs
        return (control | quotes | backslashes) != 0
    }

    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C
    }

    /// The offset of the first special byte at or after `start` in `base[0..<count]`, or `count`.
    @inline(__always)
    static func firstSpecial(in base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
        while index + 8 <= count, !anySpecial(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
            index += 8
        }
        while index < count, !isSpecial(base[index]) { index += 1 }
        return index
    }
}
