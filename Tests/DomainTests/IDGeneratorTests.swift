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

/// Within one millisecond ids keep the order they were made in (ULID's monotonic mode), and a store's floor
/// (the greatest id of the same millisecond, whichever process made it) is passed.
@Suite struct MonotonicIDTests {
    @Test func idsMadeInOneMillisecondIncrease() {
        let generator = RandomIDGenerator(clock: ManualClock())
        let ids = (0..<5_000).map { _ in generator.makeID(kind: "post") }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }

    @Test func aClockThatGoesBackDoesNotBreakTheOrder() {
        let clock = ManualClock()
        let generator = RandomIDGenerator(clock: clock)
        let first = generator.makeID(kind: "post")
        clock.advance(by: -5_000)
        #expect(generator.makeID(kind: "post") > first)
    }

    @Test func anIdAfterAFloorFromAnotherGeneratorIsGreater() {
        let clock = ManualClock()
        let mine = RandomIDGenerator(clock: clock)
        let theirs = RandomIDGenerator(clock: clock)
        var floor = theirs.makeID(kind: "bp")
        for _ in 0..<200 {
            let next = mine.makeID(kind: "bp", after: floor)
            #expect(next > floor)
            floor = theirs.makeID(kind: "bp", after: next)
            #expect(floor > next)
        }
    }

    @Test func aFloorOfAnotherKindOrShapeIsIgnored() {
        let generator = RandomIDGenerator(clock: ManualClock())
        for floor in ["note_zzzzzzzzzzzzzzzzzzzzzzzzzz", "post_1", "post_zzzzzzzzzzzzzzzzzzzzzzzzzz", "post_0000000000000000000000000!", "zzz"] {
            let id = generator.makeID(kind: "post", after: floor)
            #expect(id.hasPrefix("post_") && id.count == 31, "\(floor) -> \(id)")
        }
    }

    @Test func aFloorReadsBackToTheSameValue() {
        let generator = RandomIDGenerator(clock: ManualClock(milliseconds: 0xFFFF_FFFF_FFFF))
        let id = generator.makeID(kind: "img")
        #expect(IDValue(id: id, kind: "img")?.id(kind: "img") == id)
        #expect(IDValue(id: "img_zzzzzzzzzzzzzzzzzzzzzzzzzz", kind: "img") == nil)  // past 128 bits
    }
}
