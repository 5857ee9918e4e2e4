#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which row of the log last changed each field of an entity, as sync_entities keeps it: `field=seq@n;…`,
/// sorted by field, `n` the device's number in this database (sync_devices; 0: none), a few bytes where
/// JSON with a device id per field took ~340. A database of before version 14 kept them as JSON, still read.
final class SyncStamps {
    private let database: Database

    init(_ database: Database) { self.database = database }

    private lazy var selectDevices = Prepared(database, "SELECT n, id FROM sync_devices")
    private lazy var insertDevice = Prepared(database, "INSERT INTO sync_devices(id) VALUES (?1) RETURNING n")
    private var deviceNumbers: [String: Int64] = [:]
    private var deviceIDs: [Int64: String] = [:]
    private var devicesLoaded = false

    private func loadDevices() throws {
        guard !devicesLoaded else { return }
        try selectDevices.forEachRow { row in
            deviceNumbers[row.text(1)] = row.int64(0)
            deviceIDs[row.int64(0)] = row.text(1)
        }
        devicesLoaded = true
    }

    func number(ofDevice id: String) throws -> Int64 {
        guard !id.isEmpty else { return 0 }
        try loadDevices()
        if let known = deviceNumbers[id] { return known }
        let made = try insertDevice.integer([.text(id)]) ?? 0
        deviceNumbers[id] = made
        deviceIDs[made] = id
        return made
    }

    /// The device numbered `number`: read again when this connection has not seen it (another process on
    /// the same database numbered it since), so a stamp never reads as "no device" (which would count every
    /// deletion as not having seen it, where PostgreSQL and the other devices count it as seen).
    private func id(ofDevice number: Int64) throws -> String {
        guard number != 0 else { return "" }
        if let known = deviceIDs[number] { return known }
        forget()
        try loadDevices()
        return deviceIDs[number] ?? ""
    }

    private lazy var updateName = Prepared(database, "UPDATE sync_devices SET name = ?2 WHERE id = ?1 AND name IS NOT ?2")
    private lazy var selectName = Prepared(database, "SELECT name FROM sync_devices WHERE id = ?1")

    /// Records the name a device gave itself in its latest row.
    func setName(_ name: String, ofDevice id: String) throws {
        _ = try number(ofDevice: id)
        try updateName.run([.text(id), .text(name)])
    }

    /// The name a device last gave itself, if it did.
    func name(ofDevice id: String) throws -> String? {
        try selectName.text([.text(id)])
    }

    /// Forgets the device numbers read (a transaction that made one was rolled back).
    func forget() {
        (deviceNumbers, deviceIDs, devicesLoaded) = ([:], [:], false)
    }

    func encode(_ stamps: [String: SyncStateStore.FieldStamp]) throws -> String {
        try stamps.keys.sorted().map { field in
            let stamp = stamps[field]!
            return "\(field)=\(stamp.seq)@\(try number(ofDevice: stamp.device))"
        }.joined(separator: ";")
    }

    func decode(_ text: String) throws -> [String: SyncStateStore.FieldStamp] {
        if text.hasPrefix("{") { return try JSONDecoder().decode([String: SyncStateStore.FieldStamp].self, from: Data(text.utf8)) }
        try loadDevices()
        var stamps: [String: SyncStateStore.FieldStamp] = [:]
        for part in text.split(separator: ";") {
            guard let equals = part.firstIndex(of: "="), let at = part.firstIndex(of: "@"),
                let seq = Int64(part[part.index(after: equals)..<at]), let device = Int64(part[part.index(after: at)...])
            else { continue }
            stamps[String(part[..<equals])] = SyncStateStore.FieldStamp(seq: seq, device: try id(ofDevice: device))
        }
        return stamps
    }
}
