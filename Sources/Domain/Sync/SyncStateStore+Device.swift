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

    public func setSealingKey(_ key: [UInt8]) throws(DomainError) {
        try storage { try group.transaction { try upsert.run([.text("sealingKey"), .text(Hex.encode(key))]) } }
    }
}
