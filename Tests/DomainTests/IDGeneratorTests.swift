import Testing

@testable import Domain

/// Entity ids: `kind_` then 26 Crockford base-32 digits (48 bits of milliseconds, 80 random bits), so they
/// sort by creation time and never repeat.
@Suite struct IDGeneratorTests {
    @Test func idsAreTheKindThenTwentySixBase32Digits() {
        let generator = RandomIDGenerator(clock: ManualClock())
        let alphabet = Set("0123456789abcdefghjkmnpqrstvwxyz")
        for kind in ["note", "bp", "session"] {
            let id = generator.makeID(kind: kind)
            #expect(id.hasPrefix(kind + "_"))
            let digits = id.dropFirst(kind.count + 1)
            #expect(digits.count == 26)
            #expect(digits.allSatisfy(alphabet.contains))
        }
    }

    @Test func theFirstTenDigitsAreTheMillisecondsSoIdsSortByTime() {
        let clock = ManualClock()
        let generator = RandomIDGenerator(clock: clock)
        clock.milliseconds = 0x0123_4567_89AB
        let id = generator.makeID(kind: "note")
        // 48 bits of time fill the first 10 digits (50 bits, the top 2 are zero): 0x0123456789AB in base 32.
        #expect(id.dropFirst(5).prefix(10) == "014d2pf2db")
        var previous = id
        for step in 1...50 {
            clock.milliseconds = 0x0123_4567_89AB + Int64(step)
            let next = generator.makeID(kind: "note")
            #expect(next > previous)
            previous = next
        }
    }

    @Test func idsDoNotRepeat() {
        let generator = RandomIDGenerator(clock: ManualClock())
        let ids = (0..<10_000).map { _ in generator.makeID(kind: "note") }
        #expect(Set(ids).count == ids.count)
    }
}
