/// Makes entity ids: opaque strings, never reused.
public protocol IDGenerator: AnyObject {
    /// A new id for an entity of `kind` (such as `"note"`), greater than `floor` when `floor` is one of this
    /// generator's ids of the same kind: a store passes the greatest id made in the same millisecond (by any
    /// process), so entities made within one millisecond still sort in the order they were made.
    func makeID(kind: String, after floor: String?) -> String
}

extension IDGenerator {
    /// A new id for an entity of `kind`.
    public func makeID(kind: String) -> String { makeID(kind: kind, after: nil) }
}

/// Ids of the form `note_01jd3f6k8q2xv7w9c4m5t0bnra`: a short kind prefix, then 48 bits of milliseconds and
/// 80 random bits in Crockford base 32, so ids sort by creation time and cannot collide in practice.
///
/// Within one millisecond ids are monotonic, as ULID's monotonic mode makes them: the next id is the last
/// one (or the floor a store passes, when that is greater) plus one, so they keep the order they were made in.
public final class RandomIDGenerator: IDGenerator {
    private let clock: any Clock
    /// Seeded once from the system's random source; a system call per id would cost more than the insert.
    private var generator = Xoshiro256StarStar()
    private var last = IDValue(time: 0, high: 0, low: 0)
    static let alphabet: StaticString = "0123456789abcdefghjkmnpqrstvwxyz"

    public init(clock: any Clock) {
        self.clock = clock
    }

    public func makeID(kind: String, after floor: String?) -> String {
        let time = UInt64(max(0, clock.nowMilliseconds())) & 0xFFFF_FFFF_FFFF
        var value = IDValue(time: time, high: generator.next(), low: UInt16(truncatingIfNeeded: generator.next()))
        if value.time <= last.time { value = last.successor }
        if let floor = floor.flatMap({ IDValue(id: $0, kind: kind) }), floor >= value { value = floor.successor }
        last = value
        return value.id(kind: kind)
    }
}

/// The 128 bits of an id: 48 of time, then 80 of randomness (`high`, then `low`'s 16 bits).
struct IDValue: Comparable {
    var time: UInt64
    var high: UInt64
    var low: UInt16

    static func < (left: IDValue, right: IDValue) -> Bool {
        (left.time, left.high, left.low) < (right.time, right.high, right.low)
    }

    /// The next value: one more in the random part (carrying into the time in the unlikely case it is full).
    var successor: IDValue {
        var next = self
        next.low &+= 1
        if next.low == 0 {
            next.high &+= 1
            if next.high == 0 { next.time = (next.time + 1) & 0xFFFF_FFFF_FFFF }
        }
        return next
    }

    /// Reads an id of `kind` back; `nil` for anything else (another kind, an imported id of another shape).
    init?(id: String, kind: String) {
        let utf8 = id.utf8
        guard utf8.count == kind.utf8.count + 27, id.hasPrefix(kind + "_") else { return nil }
        var time: UInt64 = 0, high: UInt64 = 0, low: UInt64 = 0
        for byte in utf8.suffix(26) {
            guard let digit = Self.digit(byte) else { return nil }
            // Shift the 128-bit number left by 5 and add the digit; the top 2 of 130 bits must stay zero.
            guard time >> 43 == 0 else { return nil }
            time = (time << 5) | (high >> 59)
            high = (high << 5) | (low >> 11)
            low = ((low << 5) & 0xFFFF) | UInt64(digit)
        }
        self.init(time: time, high: high, low: UInt16(low))
    }

    init(time: UInt64, high: UInt64, low: UInt16) {
        self.time = time
        self.high = high
        self.low = low
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        let alphabet = RandomIDGenerator.alphabet
        for index in 0..<alphabet.utf8CodeUnitCount where alphabet.utf8Start[index] == byte { return UInt8(index) }
        return nil
    }

    /// `kind_` then 26 base-32 digits, in one allocation.
    func id(kind: String) -> String {
        var value = (time: time, high: high, low: UInt64(low))
        var prefix = kind
        return prefix.withUTF8 { kindBytes in
            String(unsafeUninitializedCapacity: kindBytes.count + 27) { buffer in
                _ = buffer.initialize(fromContentsOf: kindBytes)
                buffer[kindBytes.count] = UInt8(ascii: "_")
                let start = kindBytes.count + 1
                for index in stride(from: 25, through: 0, by: -1) {
                    buffer[start + index] = RandomIDGenerator.alphabet.utf8Start[Int(value.low & 31)]
                    // Shift the 128-bit number right by 5: low <- (high << 11 | low >> 5) within 16 bits, and so on.
                    value.low = (value.low >> 5) | ((value.high & 31) << 11)
                    value.high = (value.high >> 5) | ((value.time & 31) << 59)
                    value.time >>= 5
                }
                return start + 26
            }
        }
    }
}

/// Ids `note_1`, `note_2`, ... for tests.
public final class SequentialIDGenerator: IDGenerator {
    private var next = 1

    public init() {}

    public func makeID(kind: String, after floor: String?) -> String {
        defer { next += 1 }
        return "\(kind)_\(next)"
    }
}

/// xoshiro256** (Blackman and Vigna), seeded from the system's random source.
struct Xoshiro256StarStar: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init() {
        var seed = SystemRandomNumberGenerator()
        repeat {
            state = (seed.next(), seed.next(), seed.next(), seed.next())
        } while state == (0, 0, 0, 0)
    }

    mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}
