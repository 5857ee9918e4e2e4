import Foundation
import Testing

@testable import Domain

/// A post's `displayDate` (SPEC §7): `dd/MM/yyyy HH:mm` in the session's time zone.
///
/// Every expected string was computed with Python's `zoneinfo` (tzdata), e.g.
/// `datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(milliseconds=ms)` then
/// `.astimezone(ZoneInfo(zone)).strftime("%d/%m/%Y %H:%M")`, and pasted here as literals.
@Suite struct DisplayDateTests {
    private static func zone(_ identifier: String) throws -> TimeZoneRules {
        try #require(TimeZoneRules(identifier: identifier), "unknown time zone \(identifier)")
    }

    private static func format(_ milliseconds: Int64, _ zone: String) throws -> String {
        DisplayDate.format(milliseconds: milliseconds, in: try Self.zone(zone))
    }

    @Test func specExampleInUTC() throws {
        // 2015-05-13T10:15:00Z
        #expect(try Self.format(1_431_512_100_000, "UTC") == "13/05/2015 10:15")
        #expect(DisplayDate.format(milliseconds: 1_431_512_100_000, in: .gmt) == "13/05/2015 10:15")
    }

    @Test func utcDropsSecondsAndMilliseconds() throws {
        // 2026-05-21T09:20:59.999Z
        #expect(try Self.format(1_779_355_259_999, "UTC") == "21/05/2026 09:20")
    }

    @Test func moscowIsThreeHoursAhead() throws {
        // 2026-05-21T09:20:00Z
        #expect(try Self.format(1_779_355_200_000, "Europe/Moscow") == "21/05/2026 12:20")
        // 2026-01-15T22:10:00Z: the next day in Moscow.
        #expect(try Self.format(1_768_515_000_000, "Europe/Moscow") == "16/01/2026 01:10")
    }

    @Test func kolkataIsFiveAndAHalfHoursAhead() throws {
        // 2026-05-21T09:20:00Z
        #expect(try Self.format(1_779_355_200_000, "Asia/Kolkata") == "21/05/2026 14:50")
        // 2026-12-31T18:29:00Z and 18:30:00Z: the half hour decides the year.
        #expect(try Self.format(1_798_741_740_000, "Asia/Kolkata") == "31/12/2026 23:59")
        #expect(try Self.format(1_798_741_800_000, "Asia/Kolkata") == "01/01/2027 00:00")
    }

    @Test func kathmanduIsFiveHoursFortyFiveAhead() throws {
        // 2026-05-21T09:20:00Z
        #expect(try Self.format(1_779_355_200_000, "Asia/Kathmandu") == "21/05/2026 15:05")
        // 2026-12-31T18:14:00Z and 18:15:00Z
        #expect(try Self.format(1_798_740_840_000, "Asia/Kathmandu") == "31/12/2026 23:59")
        #expect(try Self.format(1_798_740_900_000, "Asia/Kathmandu") == "01/01/2027 00:00")
    }

    @Test func stJohnsIsThreeAndAHalfBehindInWinterAndTwoAndAHalfInSummer() throws {
        // 2026-01-15T12:00:00Z (NST, -3:30)
        #expect(try Self.format(1_768_478_400_000, "America/St_Johns") == "15/01/2026 08:30")
        // 2026-07-15T12:00:00Z (NDT, -2:30)
        #expect(try Self.format(1_784_116_800_000, "America/St_Johns") == "15/07/2026 09:30")
        // 2026-01-01T02:29:00Z: still the previous year there.
        #expect(try Self.format(1_767_234_540_000, "America/St_Johns") == "31/12/2025 22:59")
    }

    @Test func berlinSpringForward() throws {
        // 2026-03-29T00:59:59.999Z is 01:59 CET; 01:00:00Z is 03:00 CEST (02:xx never happens).
        #expect(try Self.format(1_774_745_999_999, "Europe/Berlin") == "29/03/2026 01:59")
        #expect(try Self.format(1_774_746_000_000, "Europe/Berlin") == "29/03/2026 03:00")
    }

    @Test func berlinFallBack() throws {
        // 2026-10-25T00:59:59.999Z is 02:59 CEST; 01:00:00Z is 02:00 CET (02:xx happens twice).
        #expect(try Self.format(1_792_889_999_999, "Europe/Berlin") == "25/10/2026 02:59")
        #expect(try Self.format(1_792_890_000_000, "Europe/Berlin") == "25/10/2026 02:00")
    }

    @Test func stJohnsAcrossBothChanges() throws {
        // 2026-03-08T05:29:00Z is 01:59 NST; 05:30:00Z is 03:00 NDT.
        #expect(try Self.format(1_772_947_740_000, "America/St_Johns") == "08/03/2026 01:59")
        #expect(try Self.format(1_772_947_800_000, "America/St_Johns") == "08/03/2026 03:00")
        // 2026-11-01T04:29:59.999Z is 01:59 NDT; 04:30:00Z is 01:00 NST.
        #expect(try Self.format(1_793_507_399_999, "America/St_Johns") == "01/11/2026 01:59")
        #expect(try Self.format(1_793_507_400_000, "America/St_Johns") == "01/11/2026 01:00")
    }

    @Test func datesBefore1970() throws {
        // 1969-07-20T20:17:40Z
        #expect(try Self.format(-14_182_940_000, "UTC") == "20/07/1969 20:17")
        // 1969-12-31T23:59:59.999Z: one millisecond before the epoch rounds down, not up.
        #expect(try Self.format(-1, "UTC") == "31/12/1969 23:59")
        // 1900-01-01T00:00:00Z and 1899-12-31T23:59:00Z
        #expect(try Self.format(-2_208_988_800_000, "UTC") == "01/01/1900 00:00")
        #expect(try Self.format(-2_208_988_860_000, "UTC") == "31/12/1899 23:59")
        // 1961-04-12T06:07:00Z in Moscow (+3) and 1950-06-15T12:00:00Z in Kolkata (+5:30)
        #expect(try Self.format(-275_248_380_000, "Europe/Moscow") == "12/04/1961 09:07")
        #expect(try Self.format(-616_852_800_000, "Asia/Kolkata") == "15/06/1950 17:30")
    }

    @Test func yearIsFourDigits() throws {
        // 0999-12-31T23:59:00Z ("yyyy" pads to four digits, as DateFormatter does).
        #expect(try Self.format(-30_610_224_060_000, "UTC") == "31/12/0999 23:59")
    }

    @Test func dayMonthHourAndMinuteHaveLeadingZeros() throws {
        // 2026-01-02T03:04:05Z
        #expect(try Self.format(1_767_323_045_000, "UTC") == "02/01/2026 03:04")
        // 2026-09-09T09:09:00Z
        #expect(try Self.format(1_788_944_940_000, "UTC") == "09/09/2026 09:09")
        // The epoch itself.
        #expect(try Self.format(0, "UTC") == "01/01/1970 00:00")
    }
}
