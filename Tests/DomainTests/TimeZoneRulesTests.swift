import Foundation
import Testing

@testable import Domain

/// Satchel reads time zones from the system's zone database itself (no ICU). Its offsets are checked
/// against what the system's C library gives from the same files (GNU `date`, with `TZ` set), at instants
/// from 1990 to 2100 and at every transition `zdump` lists: the test holds whichever tzdata the machine has
/// (Foundation's own zone data may be older or newer than the machine's, so it is no oracle).
@Suite struct TimeZoneRulesTests {
    /// Every zone and link the system's database lists (`tzdata.zi`).
    static func systemZones() throws -> [String] {
        let text = try String(contentsOfFile: ZoneDatabase.folder + "/tzdata.zi", encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            if fields.count >= 2 && fields[0] == "Z" { return String(fields[1]) }
            if fields.count >= 3 && fields[0] == "L" { return String(fields[2]) }
            return nil
        }.sorted()
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String = "") throws -> String {
        try ChildOutput.run(executable, arguments, environment: environment, input: input)
    }

    /// The instants of every transition of `zones` from 1990 to 2100 that `zdump -v` lists (each with the
    /// second before it), by zone.
    static func transitions(_ zones: [String]) throws -> [String: [Int64]] {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var found: [String: [Int64]] = [:]
        let output = try run("/usr/bin/zdump", ["-v", "-c", "1990,2101"] + zones)
        for line in output.split(separator: "\n") where line.contains(" UT = ") {
            // "America/Vancouver  Sun Mar 10 10:00:00 2024 UT = Sun Mar 10 03:00:00 2024 PDT isdst=1 gmtoff=-25200"
            let fields = line.split(separator: " ")
            guard fields.count > 6, let month = months.firstIndex(of: String(fields[2])), let day = Int(fields[3]),
                let year = Int(fields[5])
            else { continue }
            let time = fields[4].split(separator: ":").compactMap { Int($0) }
            guard time.count == 3 else { continue }
            found[String(fields[0]), default: []].append(
                Self.days(year: year, month: month + 1, day: day) * 86_400 + Int64(time[0] * 3600 + time[1] * 60 + time[2]))
        }
        return found
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The offsets the system gives `zone` at `instants` (GNU `date` reads the zone file through glibc).
    static func systemOffsets(_ zone: String, at instants: [Int64]) throws -> [Int?] {
        let output = try run(
            "/bin/date", ["-f", "-", "+%::z"], environment: ["TZ": zone, "LC_ALL": "C"],
            input: instants.map { "@\($0)\n" }.joined())
        return output.split(separator: "\n", omittingEmptySubsequences: false).prefix(instants.count).map { text in
            // "+05:30:00"
            guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
            let parts = text.dropFirst().split(separator: ":").compactMap { Int($0) }
            guard parts.count == 3 else { return nil }
            return (sign == "-" ? -1 : 1) * (parts[0] * 3600 + parts[1] * 60 + parts[2])
        }
    }

    @Test func everyZoneOfTheSystemHasTheOffsetsTheSystemGives() throws {
        let zones = try Self.systemZones()
        #expect(zones.count > 300, "the system's zone list")
        let transitions = try Self.transitions(zones)
        #expect(transitions["America/Vancouver"]?.isEmpty == false, "zdump's transitions")
        // Fifteen days and an hour apart, so every weekday and hour is met.
        let stride = Array(Swift.stride(from: Int64(631_152_000), to: 4_102_444_800, by: 15 * 86_400 + 3600))
        var unknown: [String] = []
        var differing: [String] = []
        // "GMT0", "GMT+0", "UTC": names of a fixed offset, named as Foundation names them (the next test).
        let fixed = { (zone: String) in zone.hasPrefix("GMT") || zone.hasPrefix("UTC") }
        for zone in zones {
            guard let rules = TimeZoneRules(identifier: zone) else {
                if !fixed(zone) { unknown.append(zone) }
                continue
            }
            if !fixed(zone) { #expect(rules.identifier == zone) }
            let instants = stride + transitions[zone, default: []]
            let expected = try Self.systemOffsets(zone, at: instants)
            if let index = instants.indices.first(where: { expected[$0] != rules.secondsFromGMT(at: instants[$0]) }) {
                differing.append("\(zone) at \(instants[index]): \(rules.secondsFromGMT(at: instants[index])), the system \(expected[index].map(String.init) ?? "nothing")")
            }
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
