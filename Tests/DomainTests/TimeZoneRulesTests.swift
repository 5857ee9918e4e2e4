import Foundation
import Testing

@testable import Domain

/// Satchel reads time zones from the system's zone database itself (no ICU): every zone Foundation knows
/// (through ICU, loaded in this test process) must be known and give the same offsets.
@Suite struct TimeZoneRulesTests {
    /// Instants from 1990 to 2100 (a week and an hour apart, so every weekday and hour is met), and each
    /// Foundation transition in that span with the second before it.
    private static func instants(_ zone: TimeZone) -> [Int64] {
        var instants = Array(stride(from: Int64(631_152_000), to: 4_102_444_800, by: 7 * 86_400 + 3600))
        var date = Date(timeIntervalSince1970: 631_152_000)
        while let next = zone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < 4_102_444_800 {
            instants += [Int64(next.timeIntervalSince1970) - 1, Int64(next.timeIntervalSince1970)]
            date = next
        }
        return instants
    }

    @Test func everyZoneFoundationKnowsHasItsOffsets() throws {
        var unknown: [String] = []
        var differing: [String] = []
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            guard let foundation = TimeZone(identifier: identifier) else { continue }
            guard let rules = TimeZoneRules(identifier: identifier) else {
                unknown.append(identifier)
                continue
            }
            #expect(rules.identifier == identifier)
            let first = Self.instants(foundation).first { instant in
                rules.secondsFromGMT(at: instant) != foundation.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
            }
            if let first { differing.append("\(identifier) at \(first)") }
        }
        #expect(unknown.isEmpty)
        #expect(differing.isEmpty)
    }

    @Test func fixedOffsetsAreNamedAsFoundationNamesThem() {
        let names = [
            "GMT", "UTC", "GMT+5", "UTC-10", "GMT+05:30", "GMT+5:30", "GMT+5.30", "GMT+0530", "GMT-1401", "GMT-14:01",
            "GMT+1:59", "GMT+18", "GMT+18:00", "GMT+0", "GMT-0", "UTC+00:00", "GMT-00:30",
            "GMT+530", "GMT+05:3", "GMT+19", "GMT+18:30", "GMT+5:", "GMT+", "GMT+005", "GMT+05:30:00", "GMT05", "GMT+123",
            "GMT+5 ", "GMTX",
        ]
        for name in names {
            #expect(TimeZoneRules(identifier: name)?.identifier == TimeZone(identifier: name)?.identifier, "\(name)")
            if let rules = TimeZoneRules(identifier: name), let zone = TimeZone(identifier: name) {
                #expect(rules.secondsFromGMT(at: 1_779_355_200) == zone.secondsFromGMT(), "\(name)")
            }
        }
    }

    @Test func namesOutsideTheDatabaseAreRefused() {
        for name in ["asia/kolkata", "utc", "Nope", "", "posixrules", "tzdata.zi", "../etc/passwd", "/etc/localtime", "Europe/", "Europe//Paris"] {
            #expect(TimeZoneRules(identifier: name) == nil, "\(name)")
        }
        #expect(TimeZoneRules(identifier: "US/Eastern")?.identifier == "US/Eastern")  // a link
        #expect(TimeZoneRules(identifier: "Factory")?.identifier == "Factory")
    }

    @Test func theSystemZoneIsTZThenTheLocaltimeLinkThenGMT() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let localtime = folder + "/localtime"
        try FileManager.default.createSymbolicLink(atPath: localtime, withDestinationPath: "/usr/share/zoneinfo/Asia/Tokyo")
        #expect(TimeZoneRules.current(environment: ["TZ": "America/St_Johns"], localtime: localtime).identifier == "America/St_Johns")
        #expect(TimeZoneRules.current(environment: ["TZ": "UTC"], localtime: localtime).identifier == "GMT")
        for unusable in ["", ":Europe/Paris", "bogus"] {
            #expect(TimeZoneRules.current(environment: ["TZ": unusable], localtime: localtime).identifier == "Asia/Tokyo")
        }
        let tokyo = TimeZoneRules.current(environment: [:], localtime: localtime)
        #expect(tokyo.identifier == "Asia/Tokyo" && tokyo.secondsFromGMT(at: 0) == 9 * 3600)
        #expect(TimeZoneRules.current(environment: [:], localtime: folder + "/missing").identifier == "GMT")
    }

    @Test func posixRulesOfEveryShape() throws {
        // Southern hemisphere: daylight time spans the new year.
        let sydney = try #require(PosixZoneRule("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        #expect(sydney.offset(at: 1_767_225_600) == 11 * 3600)  // 2026-01-01
        #expect(sydney.offset(at: 1_782_864_000) == 10 * 3600)  // 2026-07-01
        // Negative transition times (Nuuk since 2023): -01 becomes -02 at 01:00 UTC on the last Sunday of March.
        let nuuk = try #require(PosixZoneRule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
        #expect(nuuk.offset(at: 1_774_746_000 - 1) == -2 * 3600)  // 2026-03-29T00:59:59Z
        #expect(nuuk.offset(at: 1_774_746_000) == -3600)
        // Thirty minutes of daylight time (Lord Howe), hours past 24 (Santiago) and the `J` and plain day forms.
        #expect(PosixZoneRule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")?.offset(at: 1_767_225_600) == 11 * 3600)
        #expect(PosixZoneRule("<-04>4<-03>,M9.1.6/24,M4.1.6/24")?.offset(at: 1_767_225_600) == -3 * 3600)
        let julian = try #require(PosixZoneRule("XST-1XDT,J60/0,J61/0"))  // March 1 in every year
        #expect(julian.offset(at: 1_709_251_200 + 3600) == 7200)  // 2024-03-01T01:00Z, a leap year
        let zeroBased = try #require(PosixZoneRule("XST-1XDT,59/0,60/0"))  // day 59: February 29 in a leap year
        #expect(zeroBased.offset(at: 1_709_164_800 + 3600) == 7200)  // 2024-02-29T01:00Z
        #expect(PosixZoneRule("IST-5:30")?.offset(at: 0) == 19_800)
        for broken in ["", "IS-5", "IST", "IST-5:30X", "EST5EDT", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.6.0,M11.1.0", "<+05-5"] {
            #expect(PosixZoneRule(broken) == nil, "\(broken)")
        }
    }

    @Test func brokenZoneFilesAreRefused() throws {
        let berlin = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin"))
        #expect(ZoneTable(tzif: [UInt8](berlin)) != nil)
        for length in [0, 4, 43, 44, 200, berlin.count - 2] {
            #expect(ZoneTable(tzif: [UInt8](berlin.prefix(length))) == nil, "\(length) bytes")
        }
        #expect(ZoneTable(tzif: Array("TZjf".utf8) + [UInt8](berlin.dropFirst(4))) == nil)
    }
}
