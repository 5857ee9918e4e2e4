/// One zone file: its transitions, the offset each begins, and the rule for the years after them.
struct ZoneTable: Sendable {
    /// Transition instants (seconds since 1970, ascending) and the UTC offset from each on.
    let transitions: [Int64]
    let offsetAfter: [Int]
    /// Before the first transition (the file's first local time type).
    let initialOffset: Int
    /// After the last transition (or always, when there is none); `nil` keeps the last offset.
    let rule: PosixZoneRule?

    func offset(at seconds: Int64) -> Int {
        guard let last = transitions.last, seconds < last else {
            if let rule { return rule.offset(at: seconds) }
            return offsetAfter.last ?? initialOffset
        }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsetAfter[low - 1]
    }

    /// Reads a TZif file (RFC 8536): version 1's 32-bit table, or for version 2 and later the 64-bit table
    /// and the footer's TZ rule. `nil` for anything else.
    init?(tzif bytes: [UInt8]) {
        var reader = ByteReader(bytes: bytes)
        guard let header = reader.header() else { return nil }
        var counts = header.counts
        var timeSize = 4
        if header.version >= UInt8(ascii: "2") {
            guard reader.skip(counts.dataLength(timeSize: 4)), let second = reader.header() else { return nil }
            counts = second.counts
            timeSize = 8
        }
        var transitions: [Int64] = []
        for _ in 0..<counts.time {
            guard let time = reader.signed(timeSize) else { return nil }
            transitions.append(time)
        }
        var typeIndexes: [Int] = []
        for _ in 0..<counts.time {
            guard let index = reader.byte(), Int(index) < counts.type else { return nil }
            typeIndexes.append(Int(index))
        }
        var typeOffsets: [Int] = []
        for _ in 0..<counts.type {
            guard let offset = reader.signed(4), reader.skip(2) else { return nil }
            typeOffsets.append(Int(offset))
        }
        guard !typeOffsets.isEmpty,
            reader.skip(counts.character + counts.leap * (timeSize + 4) + counts.standard + counts.universal)
        else { return nil }
        var rule: PosixZoneRule?
        if timeSize == 8 {
            guard reader.byte() == UInt8(ascii: "\n"), let end = reader.rest.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let footer = reader.rest[..<end]
            if !footer.isEmpty {
                guard let parsed = PosixZoneRule(String(decoding: footer, as: UTF8.self)) else { return nil }
                rule = parsed
            }
        }
        self.transitions = transitions
        offsetAfter = typeIndexes.map { typeOffsets[$0] }
        initialOffset = typeOffsets[0]
        self.rule = rule
    }

    private struct Counts {
        var universal = 0, standard = 0, leap = 0, time = 0, type = 0, character = 0

        func dataLength(timeSize: Int) -> Int {
            time * timeSize + time + type * 6 + character + leap * (timeSize + 4) + standard + universal
        }
    }

    private struct ByteReader {
        let bytes: [UInt8]
        var position = 0

        var rest: ArraySlice<UInt8> { bytes[position...] }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, bytes.count - position >= count else { return false }
            position += count
            return true
        }

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        /// A big-endian two's-complement integer of 4 or 8 bytes.
        mutating func signed(_ size: Int) -> Int64? {
            guard bytes.count - position >= size else { return nil }
            var value: UInt64 = 0
            for byte in bytes[position..<position + size] { value = value << 8 | UInt64(byte) }
            position += size
            return size == 4 ? Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: value))) : Int64(bitPattern: value)
        }

        mutating func header() -> (version: UInt8, counts: Counts)? {
            guard bytes.count - position >= 44, bytes[position..<position + 4].elementsEqual("TZif".utf8) else { return nil }
            let version = bytes[position + 4]
            position += 20
            var counts = Counts()
            for path in [\Counts.universal, \.standard, \.leap, \.time, \.type, \.character] {
                guard let count = signed(4), count >= 0 else { return nil }
                counts[keyPath: path] = Int(count)
            }
            return (version, counts)
        }
    }
}
