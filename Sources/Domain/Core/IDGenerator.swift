/// Makes entity ids: opaque strings, never reused.
public protocol IDGenerator: AnyObject {
    /// A new id for an entity of `kind` (such as `"note"`).
    func makeID(kind: String) -> String
}

/// Ids of the form `note_01jd3f6k8q2xv7w9c4m5t0bnra`: a short kind prefix, then 48 bits of milliseconds and
/// 80 random bits in Crockford base 32, so ids sort by creation time and cannot collide in practice.
public final class RandomIDGenerator: IDGenerator {
    private let clock: any Clock
    /// Seeded once from the system's random source; a system call per id would cost more than the insert.
    private var generator = Xoshiro256StarStar()
    private static let alphabet: StaticString = "0123456789abcdefghjkmnpqrstvwxyz"

    public init(clock: any Clock) {
        self.clock = clock
    }

    public func makeID(kind: String) -> String {
        let time = UInt64(max(0, clock.nowMilliseconds())) & 0xFFFF_FFFF_FFFF
        let high = generator.next()
        let low = UInt16(truncatingIfNeeded: generator.next())
        // 128 bits: 48 of time, 80 of randomness, written as 26 base-32 digits after "kind_", in one allocation.
        var value = (time: time, high: high, low: UInt64(low))
        var prefix = kind
        return prefix.withUTF8 { kindBytes in
            String(unsafeUninitializedCapacity: kindBytes.count + 27) { buffer in
                _ = buffer.initialize(fromContentsOf: kindBytes)
                buffer[kindBytes.count] = UInt8(ascii: "_")
                let start = kindBytes.count + 1
                for index in stride(from: 25, through: 0, by: -1) {
                    buffer[start + index] = Self.alphabet.utf8Start[Int(value.low & 31)]
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

    public func makeID(kind: String) -> String {
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
