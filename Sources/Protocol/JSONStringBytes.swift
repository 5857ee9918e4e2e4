/// The bytes that end the plain part of a JSON string, in both directions: below 0x20 (control
/// characters), `"` and `\`. Strings are checked for them 8 bytes at a time.
enum JSONStringBytes {
    /// The high bit of each special byte among the 8 in `word` (read little-endian), by the classic "has a
    /// byte less than n" and "has a zero byte" bit tricks. Zero exactly when none is special; the lowest bit
    /// set is exactly the first special byte's (a borrow only reaches the bytes after it).
    @inline(__always)
    static func specialBits(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quotes = (quote &- ones) & ~quote & highs
        let backslashes = (backslash &- ones) & ~backslash & highs
        return control | quotes | backslashes
    }

    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C
    }

    /// The offset of the first special byte at or after `start` in `base[0..<count]`, or `count`.
    @inline(__always)
    static func firstSpecial(in base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
        while index + 8 <= count {
            let special = specialBits(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
            if special != 0 { return index + special.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < count, !isSpecial(base[index]) { index += 1 }
        return index
    }
}
