#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What this device is to sync, beside what it has pushed and pulled: its name (which conflict copies made
/// anywhere tell), the key of its account's encrypted apps once unlocked here, and the private changes it
/// holds back while locked.
extension SyncStateStore {
    /// The longest name a device takes, in characters.
    public static let maximumDeviceNameLength = SyncEdit.maximumNameLength

    /// This device's name, as its rows tell other devices (a conflict copy names where the version it keeps
    /// was written): the one set, else the machine's host name.
    public func deviceName() throws(DomainError) -> String {
        try storage { try currentDeviceName() }
    }

    func currentDeviceName() throws -> String {
        if let knownDeviceName { return knownDeviceName }
        var name = try select.text([.text("deviceName")]) ?? ProcessInfo.processInfo.hostName
        if name.isEmpty { name = "device" }
        name = String(name.prefix(Self.maximumDeviceNameLength))
        knownDeviceName = name
        return name
    }

    /// Names this device (1 to 64 characters, spaces at its ends left out): its rows from now on say so.
    public func setDeviceName(_ name: String) throws(DomainError) {
        var trimmed = Substring(name).drop { $0.isWhitespace }
        while trimmed.last?.isWhitespace == true { trimmed = trimmed.dropLast() }
        let name = String(trimmed)
        if TextRules.isBlank(name) { throw .validation(reason: .emptyName, field: "name") }
        try TextRules.check(name, field: "name", characters: Self.maximumDeviceNameLength, reason: .nameTooLong)
        try storage { try group.transaction { try upsert.run([.text("deviceName"), .text(name)]) } }
        knownDeviceName = name
    }

    /// Sends what a locked device held back: the push goes back to the first entry held (entries sent since
    /// go again, and PostgreSQL adds nothing twice).
    public func releaseHeld() throws(DomainError) {
        try storage {
            try group.transaction {
                guard let first = try firstHeld.integer() else { return }
                try upsert.run([.text("pushed"), .text(String(min(first - 1, try number("pushed"))))])
                try clearHeld.run()
            }
        }
    }

    /// The key that seals this device's account's private apps, once it has it (kept in this database, as
    /// the plaintext is).
    public func sealingKey() throws(DomainError) -> [UInt8]? {
        try storage {
            guard let hex = try select.text([.text("sealingKey")]), let key = Hex.decode(hex), key.count == 32 else { return nil }
            return key
        }
    }

    /// Keeps `key`. `restate`: this device turned the account's encryption on, so the versions it pulls
    /// from then on are sealed anew (``restate()``), and what PostgreSQL kept in plaintext can go.
    public func setSealingKey(_ key: [UInt8], restate: Bool = false) throws(DomainError) {
        try storage {
            try group.transaction {
                try upsert.run([.text("sealingKey"), .text(Hex.encode(key))])
                if restate { try upsert.run([.text("restate"), .text("1")]) }
            }
        }
    }

    private static let privateEntitiesSQL = """
        SELECT domain, entity FROM sync_entities
        WHERE known > 0 AND domain IN ('notes', 'photos', 'diary', 'reminders') ORDER BY known
        """
    private static let deleteRestateSQL = "DELETE FROM sync_state WHERE key = 'restate'"

    /// Once asked (``setSealingKey(_:restate:)``) and caught up with the log: every private entity the log
    /// has a version of, and this device too, gets a change-log entry, so that its state goes out again,
    /// sealed. Such a row changes no field (the entity's version stays as it is on every device); it
    /// supersedes the plaintext versions before it, which PostgreSQL then lets go. Answers how many.
    public func restate() throws(DomainError) -> Int {
        try storage {
            guard try select.text([.text("restate")]) != nil else { return 0 }
            return try group.transaction {
                var count = 0
                let now = clock.nowMilliseconds()
                var entities: [(String, String)] = []
                try Prepared(database, Self.privateEntitiesSQL).forEachRow { entities.append(($0.text(0), $0.text(1))) }
                for (domain, id) in entities {
                    guard let kind = ChangeDomain(rawValue: domain), try hasVersion(kind, id) else { continue }
                    try changes.record(kind, .updated, id: id, at: now)
                    count += 1
                }
                try database.run(Self.deleteRestateSQL)
                return count
            }
        }
    }

    /// Whether this device has a version of `id` (not deleted, nor hidden).
    func hasVersion(_ domain: ChangeDomain, _ id: String) throws -> Bool {
        func has<D: SyncDomain>(_ kind: D) throws -> Bool {
            if case .version = try kind.read(id) { return true }
            return false
        }
        switch domain {
        case .notes: return try has(notes)
        case .photos: return try has(photos)
        case .diary: return try has(diary)
        case .reminders: return try has(reminders)
        default: return false
        }
    }
}
