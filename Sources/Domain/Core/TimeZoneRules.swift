#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A time zone: its name and its offset from UTC at any instant. Named zones come from the system's zone
/// database (`/usr/share/zoneinfo`, Debian's tzdata: TZif files, RFC 8536, and the POSIX TZ rule each ends
/// with for the years after its table); fixed offsets (`GMT`, `UTC`, `GMT+5`, `UTC-03:30`) are named as
/// Foundation's `TimeZone` names them. Foundation reads named zones through ICU, which satchel does not
/// load: this is all the time zone work a diary date needs.
public struct TimeZoneRules: Sendable {
    /// The name a client gave (`Asia/Kolkata`), or Foundation's for a fixed offset (`GMT+0530`).
    public let identifier: String
    private let offsets: Offsets

    private enum Offsets: Sendable {
        case fixed(Int)
        case table(ZoneTable)
    }

    public static let gmt = TimeZoneRules(identifier: "GMT", offsets: .fixed(0))

    private init(identifier: String, offsets: Offsets) {
        self.identifier = identifier
        self.offsets = offsets
    }

    /// The zone of an IANA name the zone database lists (links such as `US/Eastern` among them; names are
    /// case-sensitive), or a fixed offset from GMT or UTC; `nil` for anything else.
    public init?(identifier: String) {
        self.init(identifier: identifier, listed: ZoneDatabase.lists)
    }

    /// `listed` says whether a name is one of the database's; the system's own choice of zone is not checked
    /// against the list, which is read only when a client names a zone.
    private init?(identifier: String, listed: (String) -> Bool) {
        if identifier.hasPrefix("GMT") || identifier.hasPrefix("UTC") {
            guard let offset = Self.fixedOffset(identifier) else { return nil }
            let minutes = abs(offset) / 60
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let name = offset == 0 ? "GMT" : "GMT\(offset < 0 ? "-" : "+")\(two(minutes / 60))\(two(minutes % 60))"
            self.init(identifier: name, offsets: .fixed(offset))
            return
        }
        guard ZoneDatabase.isZoneName(identifier), listed(identifier), let table = ZoneDatabase.table(identifier) else {
            return nil
        }
        self.init(identifier: identifier, offsets: .table(table))
    }

    /// The system's zone, as Foundation finds it: `$TZ` when it names a zone, else the zone `localtime` (a
    /// link into the database) names, else GMT.
    public static func current(environment: [String: String], localtime: String = "/etc/localtime") -> TimeZoneRules {
        if let name = environment["TZ"], let zone = TimeZoneRules(identifier: name, listed: { _ in true }) {
            return zone
        }
        var target = [CChar](repeating: 0, count: 4096)
        let length = readlink(localtime, &target, target.count - 1)
        if length > 0 {
            let path = target[..<length].map { UInt8(bitPattern: $0) }
            let marker = Array("zoneinfo/".utf8)
            if let start = path.indices.first(where: { path[$0...].starts(with: marker) }),
                let zone = TimeZoneRules(
                    identifier: String(decoding: path[(start + marker.count)...], as: UTF8.self), listed: { _ in true })
            {
                return zone
            }
        }
        return .gmt
    }

    /// The offset of `GMT`, `UTC`, or either followed by `+` or `-` and `H`, `HH`, `HHMM`, `H:MM` or `HH:MM`
    /// (`.` for `:` too; up to 18 hours), as Foundation reads them.
    private static func fixedOffset(_ name: String) -> Int? {
        let rest = Array(name.utf8.dropFirst(3))
        guard let sign = rest.first else { return 0 }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        func digit(_ index: Int) -> Int? {
            index < rest.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(rest[index]) ? Int(rest[index] - UInt8(ascii: "0")) : nil
        }
        guard let first = digit(1) else { return nil }
        var hours = first
        var index = 2
        if let second = digit(2) {
            hours = first * 10 + second
            index = 3
        }
        var minutes = 0
        if index < rest.count {
            if rest[index] == UInt8(ascii: ":") || rest[index] == UInt8(ascii: ".") {
                index += 1
            } else if index == 2 {
                return nil  // H then MM with nothing between: ambiguous
            }
            guard rest.count == index + 2, let tens = digit(index), tens <= 5, let ones = digit(index + 1) else { return nil }
            minutes = tens * 10 + ones
        }
        guard hours < 18 || (hours == 18 && minutes == 0) else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// Seconds to add to UTC for the local time at `seconds` since 1970.
    public func secondsFromGMT(at seconds: Int64) -> Int {
        switch offsets {
        case .fixed(let offset): offset
        case .table(let table): table.offset(at: seconds)
        }
    }
}

/// The system's zone database: its files, and the names its `tzdata.zi` lists (read once, when first asked).
enum ZoneDatabase {
    static let folder = "/usr/share/zoneinfo"

    private static let names: Set<String>? = {
        guard let text = FileManager.default.contents(atPath: folder + "/tzdata.zi") else { return nil }
        var names = Set<String>()
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 3)
            if fields.count >= 2, fields[0].elementsEqual("Z".utf8) {
                names.insert(String(decoding: fields[1], as: UTF8.self))  // Z name offset rules format
            } else if fields.count >= 3, fields[0].elementsEqual("L".utf8) {
                names.insert(String(decoding: fields[2], as: UTF8.self))  // L target name
            }
        }
        return names
    }()

    /// Whether the database lists `name` as a zone or a link (any zone file, when it has no list).
    static func lists(_ name: String) -> Bool {
        names?.contains(name) ?? true
    }

    /// Made of a zone name's characters and parts: nothing that leaves the folder.
    static func isZoneName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            part.first.map { $0 != "." } ?? false
                && part.utf8.allSatisfy { $0.isLetter || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "_+-.".utf8.contains($0) }
        }
    }

    static func table(_ name: String) -> ZoneTable? {
        guard let bytes = FileManager.default.contents(atPath: folder + "/" + name), bytes.count <= 1 << 20 else { return nil }
        return ZoneTable(tzif: [UInt8](bytes))
    }
}

/// One zone file: its transitions, the offset each begins, and the rule for the years after them.
struct ZoneTable: Sendable {
    /// Transition instants (seconds since 1970, ascending) and the UTC offset from each on.
    let transitions: [Int64]
    let offsetAfter: [Int]
    /// Before the first transition (the file's first local time type).
    let initialOffset: Int
    /// After the last transition (or always, when there is none); `nil` keeps the last offset.
    let rule: PosixZoneRule?

    func offset(at seconds: Int64) -> Int {
        guard let last = transitions.last, seconds < last else {
            if let rule { return rule.offset(at: seconds) }
            return offsetAfter.last ?? initialOffset
        }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsetAfter[low - 1]
    }

    /// Reads a TZif file (RFC 8536): version 1's 32-bit table, or for version 2 and later the 64-bit table
    /// and the footer's TZ rule. `nil` for anything else.
    init?(tzif bytes: [UInt8]) {
        var reader = ByteReader(bytes: bytes)
        guard let header = reader.header() else { return nil }
        var counts = header.counts
        var timeSize = 4
        if header.version >= UInt8(ascii: "2") {
            guard reader.skip(counts.dataLength(timeSize: 4)), let second = reader.header() else { return nil }
            counts = second.counts
            timeSize = 8
        }
        var transitions: [Int64] = []
        for _ in 0..<counts.time {
            guard let time = reader.signed(timeSize) else { return nil }
            transitions.append(time)
        }
        var typeIndexes: [Int] = []
        for _ in 0..<counts.time {
            guard let index = reader.byte(), Int(index) < counts.type else { return nil }
            typeIndexes.append(Int(index))
        }
        var typeOffsets: [Int] = []
        for _ in 0..<counts.type {
            guard let offset = reader.signed(4), reader.skip(2) else { return nil }
            typeOffsets.append(Int(offset))
        }
        guard !typeOffsets.isEmpty,
            reader.skip(counts.character + counts.leap * (timeSize + 4) + counts.standard + counts.universal)
        else { return nil }
        var rule: PosixZoneRule?
        if timeSize == 8 {
            guard reader.byte() == UInt8(ascii: "\n"), let end = reader.rest.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let footer = reader.rest[..<end]
            if !footer.isEmpty {
                guard let parsed = PosixZoneRule(String(decoding: footer, as: UTF8.self)) else { return nil }
                rule = parsed
            }
        }
        self.transitions = transitions
        offsetAfter = typeIndexes.map { typeOffsets[$0] }
        initialOffset = typeOffsets[0]
        self.rule = rule
    }

    private struct Counts {
        var universal = 0, standard = 0, leap = 0, time = 0, type = 0, character = 0

        func dataLength(timeSize: Int) -> Int {
            time * timeSize + time + type * 6 + character + leap * (timeSize + 4) + standard + universal
        }
    }

    private struct ByteReader {
        let bytes: [UInt8]
        var position = 0

        var rest: ArraySlice<UInt8> { bytes[position...] }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, bytes.count - position >= count else { return false }
            position += count
            return true
        }

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        /// A big-endian two's-complement integer of 4 or 8 bytes.
        mutating func signed(_ size: Int) -> Int64? {
            guard bytes.count - position >= size else { return nil }
            var value: UInt64 = 0
            for byte in bytes[position..<position + size] { value = value << 8 | UInt64(byte) }
            position += size
            return size == 4 ? Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: value))) : Int64(bitPattern: value)
        }

        mutating func header() -> (version: UInt8, counts: Counts)? {
            guard bytes.count - position >= 44, bytes[position..<position + 4].elementsEqual("TZif".utf8) else { return nil }
            let version = bytes[position + 4]
            position += 20
            var counts = Counts()
            for path in [\Counts.universal, \.standard, \.leap, \.time, \.type, \.character] {
                guard let count = signed(4), count >= 0 else { return nil }
                counts[keyPath: path] = Int(count)
            }
            return (version, counts)
        }
    }
}

/// A POSIX TZ rule as a TZif footer holds it: `IST-5:30`, `EST5EDT,M3.2.0,M11.1.0`,
/// `<-02>2<-01>,M3.5.0/-1,M10.5.0/0` (RFC 8536 section 3.3, with its extensions: hours up to 167 and
/// negative in the transition times).
struct PosixZoneRule: Sendable, Equatable {
    /// UTC offsets (east positive) of standard and of daylight saving time.
    let standard: Int
    let daylight: Int?
    let start: Transition
    let end: Transition

    struct Transition: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// `Jn`: day 1...365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0...365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 is Sunday) of week `w` (5 is the last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        let day: Day
        /// Local seconds after midnight (standard time for the start, daylight time for the end).
        let time: Int

        /// The day's number in `year` (0 is January 1).
        func dayOfYear(in year: Int64) -> Int64 {
            let leap = Timestamp.daysIn(month: 2, year: year) == 29
            switch day {
            case .julian(let number):
                return Int64(number - 1) + (leap && number >= 60 ? 1 : 0)
            case .zeroBased(let number):
                return Int64(number)
            case .monthWeekDay(let month, let week, let weekday):
                let firstOfYear = Timestamp.days(fromCivil: year, 1, 1)
                let firstOfMonth = Timestamp.days(fromCivil: year, Int64(month), 1)
                let weekdayOfFirst = Timestamp.floorDivide(firstOfMonth + 4, 7).remainder  // 1970-01-01 was a Thursday
                var day = (Int64(weekday) - weekdayOfFirst + 7) % 7 + Int64(week - 1) * 7
                if day >= Timestamp.daysIn(month: Int64(month), year: year) { day -= 7 }
                return firstOfMonth - firstOfYear + day
            }
        }
    }

    func offset(at seconds: Int64) -> Int {
        guard let daylight else { return standard }
        let year = Timestamp.civil(fromDays: Timestamp.floorDivide(seconds + Int64(standard), 86_400).quotient).year
        let newYear = Timestamp.days(fromCivil: year, 1, 1)
        let starts = (newYear + start.dayOfYear(in: year)) * 86_400 + Int64(start.time - standard)
        let ends = (newYear + end.dayOfYear(in: year)) * 86_400 + Int64(end.time - daylight)
        let inDaylight = starts < ends ? (starts <= seconds && seconds < ends) : !(ends <= seconds && seconds < starts)
        return inDaylight ? daylight : standard
    }

    init?(_ text: String) {
        var scanner = RuleScanner(bytes: Array(text.utf8))
        guard scanner.name(), let standardOffset = scanner.time(maximumHours: 24) else { return nil }
        standard = -standardOffset
        if scanner.atEnd {
            daylight = nil
            start = Transition(day: .zeroBased(0), time: 0)
            end = start
            return
        }
        guard scanner.name() else { return nil }
        if let daylightOffset = scanner.peek != UInt8(ascii: ",") ? scanner.time(maximumHours: 24) : nil {
            daylight = -daylightOffset
        } else {
            daylight = standard + 3600
        }
        // A footer with daylight time always has its rule; without one, POSIX leaves the dates to the system.
        guard scanner.take(UInt8(ascii: ",")), let start = scanner.transition(), scanner.take(UInt8(ascii: ",")),
            let end = scanner.transition(), scanner.atEnd
        else { return nil }
        self.start = start
        self.end = end
    }

    private struct RuleScanner {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }
        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            position += 1
            return true
        }

        /// `EST` (three or more letters) or `<+0530>` (quoted).
        mutating func name() -> Bool {
            if take(UInt8(ascii: "<")) {
                guard let close = bytes[position...].firstIndex(of: UInt8(ascii: ">")), close > position else { return false }
                position = close + 1
                return true
            }
            let start = position
            while let byte = peek, byte.isLetter { position += 1 }
            return position - start >= 3
        }

        mutating func number() -> Int? {
            let start = position
            var value = 0
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), position - start < 3 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                position += 1
            }
            return position > start ? value : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func time(maximumHours: Int) -> Int? {
            let sign = take(UInt8(ascii: "-")) ? -1 : 1
            if sign == 1 { _ = take(UInt8(ascii: "+")) }
            guard let hours = number(), hours <= maximumHours else { return nil }
            var seconds = hours * 3600
            if take(UInt8(ascii: ":")) {
                guard let minutes = number(), minutes < 60 else { return nil }
                seconds += minutes * 60
                if take(UInt8(ascii: ":")) {
                    guard let rest = number(), rest < 60 else { return nil }
                    seconds += rest
                }
            }
            return sign * seconds
        }

        /// `Jn`, `n` or `Mm.w.d`, then `/time` (02:00 when left out).
        mutating func transition() -> Transition? {
            let day: Transition.Day
            if take(UInt8(ascii: "J")) {
                guard let number = number(), (1...365).contains(number) else { return nil }
                day = .julian(number)
            } else if take(UInt8(ascii: "M")) {
                guard let month = number(), (1...12).contains(month), take(UInt8(ascii: ".")), let week = number(),
                    (1...5).contains(week), take(UInt8(ascii: ".")), let weekday = number(), weekday <= 6
                else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else {
                guard let number = number(), number <= 365 else { return nil }
                day = .zeroBased(number)
            }
            var time = 7200
            if take(UInt8(ascii: "/")) {
                guard let given = self.time(maximumHours: 167) else { return nil }
                time = given
            }
            return Transition(day: day, time: time)
        }
    }
}

extension UInt8 {
    fileprivate var isLetter: Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
    }
}
