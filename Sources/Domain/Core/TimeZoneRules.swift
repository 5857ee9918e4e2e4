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
                && part.utf8.allSatisfy { $0.isASCIILetter || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "_+-.".utf8.contains($0) }
        }
    }

    static func table(_ name: String) -> ZoneTable? {
        guard let bytes = FileManager.default.contents(atPath: folder + "/" + name), bytes.count <= 1 << 20 else { return nil }
        return ZoneTable(tzif: [UInt8](bytes))
    }
}
