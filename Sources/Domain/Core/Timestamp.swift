/// RFC 3339 timestamps: written in UTC with milliseconds (`2026-11-21T09:15:00.000Z`), read with any offset.
///
/// Hand-written (days-from-civil arithmetic) so it is exact, allocation-light and free of formatter state.
public enum Timestamp {
    /// Milliseconds since 1970 as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC).
    public static func format(milliseconds: Int64) -> String {
        String(unsafeUninitializedCapacity: 24) { buffer in
            write(milliseconds: milliseconds, into: buffer)
            return 24
        }
    }

    /// Writes the 24 bytes of the formatted timestamp at `destination`.
    public static func write(milliseconds: Int64, to destination: UnsafeMutablePointer<UInt8>) {
        write(milliseconds: milliseconds, into: UnsafeMutableBufferPointer(start: destination, count: 24))
    }

    private static func write(milliseconds: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let (days, millisecondOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else {
            // Outside four-digit years RFC 3339 has no form; write the nearest representable instant.
            write(milliseconds: year < 0 ? -62_167_219_200_000 : 253_402_300_799_999, into: buffer)
            return
        }
        // Unsigned 32-bit arithmetic on small values: divisions by constants become multiplications.
        let base = buffer.baseAddress.unsafelyUnwrapped
        func two(_ value: UInt32, at offset: Int) {
            base[offset] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
            base[offset + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
        }
        let yearValue = UInt32(truncatingIfNeeded: year)
        two(yearValue / 100, at: 0)
        two(yearValue % 100, at: 2)
        base[4] = UInt8(ascii: "-")
        two(UInt32(truncatingIfNeeded: month), at: 5)
        base[7] = UInt8(ascii: "-")
        two(UInt32(truncatingIfNeeded: day), at: 8)
        base[10] = UInt8(ascii: "T")
        let ofDay = UInt32(truncatingIfNeeded: millisecondOfDay)
        let seconds = ofDay / 1000
        two(seconds / 3600, at: 11)
        base[13] = UInt8(ascii: ":")
        two(seconds / 60 % 60, at: 14)
        base[16] = UInt8(ascii: ":")
        two(seconds % 60, at: 17)
        base[19] = UInt8(ascii: ".")
        let milliseconds = ofDay % 1000
        base[20] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: milliseconds / 100)
        two(milliseconds % 100, at: 21)
        buffer[23] = UInt8(ascii: "Z")
    }

    /// Parses `YYYY-MM-DD('T'|'t'|' ')HH:MM:SS(.fraction)?('Z'|'z'|±HH:MM)` into milliseconds since 1970
    /// (fractions beyond milliseconds are truncated); `nil` when the text is not such a timestamp.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        var index = 0
        func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<width {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
                index += 1
            }
            return value
        }
        func expect(_ characters: UInt8...) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), expect(UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")),
            let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
            let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23,
            minute <= 59, second <= 60
        else { return nil }
        var millisecond: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                if digits < 3 { millisecond = millisecond * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 {
                for _ in digits..<3 { millisecond *= 10 }
            }
        }
        var offsetMinutes: Int64 = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = bytes[index] == UInt8(ascii: "+") ? 1 : -1
            index += 1
            guard let offsetHour = number(2), expect(UInt8(ascii: ":")), let offsetMinute = number(2),
                offsetHour <= 23, offsetMinute <= 59
            else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        // A leap second (:60) is read as the last millisecond's next one, i.e. the following second.
        let days = days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return seconds * 1000 + millisecond
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
        let yearOfEra = adjustedYear - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
