#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `dd/MM/yyyy HH:mm` in a time zone, as the diary shows a post's date (e.g. `13/05/2015 10:15`).
public enum DisplayDate {
    public static func format(milliseconds: Int64, in zone: TimeZoneRules) -> String {
        let seconds = Timestamp.floorDivide(milliseconds, 1000).quotient
        let offset = Int64(zone.secondsFromGMT(at: seconds))
        let local = seconds + offset
        let (days, secondOfDay) = Timestamp.floorDivide(local, 86_400)
        let (year, month, day) = Timestamp.civil(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let paddedYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(two(day))/\(two(month))/\(paddedYear) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60))"
    }
}
