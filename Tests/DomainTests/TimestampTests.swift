import Testing

@testable import Domain

/// RFC 3339 timestamps (SPEC §3): written in UTC with milliseconds, read with any offset.
/// Expected values were computed with Python's datetime.
@Suite struct TimestampTests {
    // MARK: Format

    @Test func formatOfZeroIsTheEpoch() {
        #expect(Timestamp.format(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
    }

    @Test(arguments: [
        (Int64(1_779_355_200_000), "2026-05-21T09:20:00.000Z"),
        (1_779_355_200_123, "2026-05-21T09:20:00.123Z"),
        (1_795_252_500_000, "2026-11-21T09:15:00.000Z"),
        (1_234_567_890_123, "2009-02-13T23:31:30.123Z"),
        (1, "1970-01-01T00:00:00.001Z"),
        (999, "1970-01-01T00:00:00.999Z"),
        (86_399_999, "1970-01-01T23:59:59.999Z"),
        (1_709_164_800_000, "2024-02-29T00:00:00.000Z"),
        (951_825_600_000, "2000-02-29T12:00:00.000Z"),
    ])
    func formatWritesUTCWithMilliseconds(milliseconds: Int64, text: String) {
        #expect(Timestamp.format(milliseconds: milliseconds) == text)
    }

    @Test(arguments: [
        (Int64(-1), "1969-12-31T23:59:59.999Z"),
        (-1000, "1969-12-31T23:59:59.000Z"),
        (-86_400_000, "1969-12-31T00:00:00.000Z"),
        (-86_400_001, "1969-12-30T23:59:59.999Z"),
        (-123_456_789, "1969-12-30T13:42:23.211Z"),
        (-14_182_939_500, "1969-07-20T20:17:40.500Z"),
        (-2_203_891_200_000, "1900-03-01T00:00:00.000Z"),
        (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
    ])
    func formatHandlesTimesBefore1970(milliseconds: Int64, text: String) {
        #expect(Timestamp.format(milliseconds: milliseconds) == text)
    }

    @Test func formatClampsToFourDigitYears() {
        #expect(Timestamp.format(milliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.format(milliseconds: 253_402_300_800_000) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.format(milliseconds: -62_167_219_200_001) == "0000-01-01T00:00:00.000Z")
        #expect(Timestamp.format(milliseconds: Int64.max) == "9999-12-31T23:59:59.999Z")
    }

    // MARK: Parse

    @Test(arguments: [
        ("2026-11-21T09:15:00.000Z", Int64(1_795_252_500_000)),
        ("2026-11-21T09:15:00Z", 1_795_252_500_000),
        ("2026-11-21T09:15:00z", 1_795_252_500_000),
        ("2026-11-21t09:15:00Z", 1_795_252_500_000),
        ("2026-11-21 09:15:00Z", 1_795_252_500_000),
        ("2026-11-21T14:45:00+05:30", 1_795_252_500_000),
        ("2026-11-21T01:15:00-08:00", 1_795_252_500_000),
        ("2026-11-21T09:15:00+00:00", 1_795_252_500_000),
        ("2026-11-21T09:15:00-00:00", 1_795_252_500_000),
        ("2026-11-22T09:14:00+23:59", 1_795_252_500_000),
        ("1970-01-01T00:00:00Z", 0),
        ("1970-01-01T05:30:00.001+05:30", 1),
        ("1969-12-31T23:59:59.999Z", -1),
        ("1969-07-20T20:17:40.5Z", -14_182_939_500),
    ])
    func parseAcceptsAnyRFC3339Offset(text: String, milliseconds: Int64) {
        #expect(Timestamp.parse(text) == milliseconds)
    }

    @Test(arguments: [
        ("2026-11-21T09:15:00.1Z", Int64(100)),
        ("2026-11-21T09:15:00.12Z", 120),
        ("2026-11-21T09:15:00.123Z", 123),
        ("2026-11-21T09:15:00.1239Z", 123),
        ("2026-11-21T09:15:00.12399Z", 123),
        ("2026-11-21T09:15:00.999999Z", 999),
        ("2026-11-21T09:15:00.9999999Z", 999),
        ("2026-11-21T09:15:00.12345678Z", 123),
        ("2026-11-21T09:15:00.987654321Z", 987),
        ("2026-11-21T09:15:00.000000001Z", 0),
        ("2026-11-21T14:45:00.987654321+05:30", 987),
    ])
    func parseTruncatesFractionsOfOneToNineDigitsToMilliseconds(text: String, millisecond: Int64) {
        #expect(Timestamp.parse(text) == 1_795_252_500_000 + millisecond)
    }

    @Test(arguments: [
        "2026-13-01T00:00:00Z",  // month 13
        "2026-00-01T00:00:00Z",  // month 0
        "2026-02-30T00:00:00Z",  // 30 February
        "2026-02-29T00:00:00Z",  // 29 February in a common year
        "2023-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",  // 1900 is not a leap year
        "2026-04-31T00:00:00Z",  // April has 30 days
        "2026-01-32T00:00:00Z",
        "2026-01-00T00:00:00Z",
        "2026-01-01T24:00:00Z",
        "2026-01-01T00:60:00Z",
        "2026-01-01T00:00:61Z",
        "2026-11-21T09:15:00",  // no offset
        "2026-11-21T09:15:00.000",  // no offset after a fraction
        "2026-11-21T09:15:00.Z",  // a dot with no digits
        "2026-11-21T09:15:00Zjunk",  // trailing garbage
        "2026-11-21T09:15:00Z ",
        "2026-11-21T09:15:00+05:30x",
        "2026-11-21T09:15:00+0530",  // offset without a colon
        "2026-11-21T09:15:00+05",
        "2026-11-21T09:15:00+24:00",
        "2026-11-21T09:15:00+05:60",
        "2026-11-21T09:15:00UTC",
        "2026-11-21X09:15:00Z",
        "2026-11-21",
        "26-11-21T09:15:00Z",
        "2026-1-21T09:15:00Z",
        "2026-11-21T9:15:00Z",
        "2026/11/21T09:15:00Z",
        " 2026-11-21T09:15:00Z",
        "２０２６-11-21T09:15:00Z",  // full-width digits
        "",
        "garbage",
    ])
    func parseRejectsWhatIsNotAnRFC3339Timestamp(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func leapDayIsAcceptedInLeapYears() {
        #expect(Timestamp.parse("2024-02-29T00:00:00Z") == 1_709_164_800_000)
        #expect(Timestamp.parse("2000-02-29T12:00:00Z") == 951_825_600_000)
        #expect(Timestamp.parse("1600-02-29T00:00:00Z") != nil)
    }

    @Test func centuriesAreLeapOnlyWhenDivisibleBy400() {
        #expect(Timestamp.daysIn(month: 2, year: 1900) == 28)
        #expect(Timestamp.daysIn(month: 2, year: 2000) == 29)
        #expect(Timestamp.daysIn(month: 2, year: 2100) == 28)
        #expect(Timestamp.daysIn(month: 2, year: 2024) == 29)
        #expect(Timestamp.daysIn(month: 2, year: 2023) == 28)
        #expect(Timestamp.parse("1900-02-29T00:00:00Z") == nil)
        #expect(Timestamp.parse("2000-02-29T00:00:00Z") != nil)
        #expect(Timestamp.parse("2100-02-29T00:00:00Z") == nil)
        // The day after 28 February 1900 is 1 March.
        #expect(Timestamp.format(milliseconds: Timestamp.parse("1900-02-28T00:00:00Z")! + 86_400_000)
            == "1900-03-01T00:00:00.000Z")
        #expect(Timestamp.format(milliseconds: Timestamp.parse("2000-02-28T00:00:00Z")! + 86_400_000)
            == "2000-02-29T00:00:00.000Z")
    }

    // MARK: Round trips

    @Test(arguments: [
        "1970-01-01T00:00:00.000Z", "2026-11-21T09:15:00.000Z", "2024-02-29T23:59:59.999Z",
        "1969-12-31T23:59:59.999Z", "1900-03-01T00:00:00.000Z", "0000-01-01T00:00:00.000Z",
        "9999-12-31T23:59:59.999Z", "2000-02-29T12:34:56.789Z",
    ])
    func formatOfParseRoundTrips(text: String) throws {
        let milliseconds = try #require(Timestamp.parse(text))
        #expect(Timestamp.format(milliseconds: milliseconds) == text)
    }

    @Test func formatOfParseNormalisesOffsetsToUTC() {
        #expect(Timestamp.parse("2026-11-21t14:45:00.5+05:30").map { Timestamp.format(milliseconds: $0) }
            == "2026-11-21T09:15:00.500Z")
        #expect(Timestamp.parse("2026-12-31T20:00:00-08:00").map { Timestamp.format(milliseconds: $0) }
            == "2027-01-01T04:00:00.000Z")
    }

    @Test func parseOfFormatRoundTripsAcrossTheRange() throws {
        var random = DomainTestRandom(seed: 3339)
        let values: [Int64] = [0, -1, 1, 951_825_600_000, -62_167_219_200_000, 253_402_300_799_999]
            + (0..<2000).map { _ in Int64.random(in: -62_167_219_200_000...253_402_300_799_999, using: &random) }
        for value in values {
            let text = Timestamp.format(milliseconds: value)
            #expect(Timestamp.parse(text) == value, "\(value) -> \(text)")
        }
    }

    @Test func daysFromCivilAndBackAgree() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let (year, month, day) = Timestamp.civil(fromDays: days)
            #expect(Timestamp.days(fromCivil: year, month, day) == days)
            #expect((1...12).contains(month))
            #expect(day >= 1 && day <= Timestamp.daysIn(month: month, year: year))
        }
    }
}
