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
            while let byte = peek, byte.isASCIILetter { position += 1 }
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
    /// A-Z or a-z.
    var isASCIILetter: Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
    }
}
