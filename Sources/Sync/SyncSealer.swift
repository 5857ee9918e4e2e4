import Domain

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How an encrypted account's private rows and photos travel: sealed on this device before they go, opened
/// here after they come. PostgreSQL keeps a private row as `{"id": <entity>, "sealed": <base64>}`; what is
/// sealed is the fields it changed and its body, padded to a size bucket, bound to the row's identity
/// (account, app, entity, device and its change number), so a ciphertext moved onto another row does not
/// open. A photo is sealed bound to its SHA-256 and kept under a keyed hash of it.
struct SyncSealer: Sendable {
    static let privateDomains: Set<String> = ["notes", "photos", "diary", "reminders"]

    let key: [UInt8]
    let account: String
    private let nameKey: [UInt8]

    init(key: [UInt8], account: String) {
        self.key = key
        self.account = account
        nameKey = SyncCrypto.subkey(key, number: 1)
    }

    private func identity(_ domain: String, _ entity: String, device: String, deviceSeq: Int64) -> [UInt8] {
        Array("satchel/1|\(account)|\(domain)|\(entity)|\(device)|\(deviceSeq)".utf8)
    }

    /// A photo's name in PostgreSQL: a keyed hash of its SHA-256.
    func name(_ sha256: String) -> String { SyncCrypto.keyedName(sha256, key: nameKey) }

    /// `row` as PostgreSQL keeps it: a private put sealed, every photo it shows by its keyed name.
    func seal(_ row: PushRow, device: String) -> PushRow {
        guard Self.privateDomains.contains(row.domain) else { return row }
        var sealed = row
        sealed.images = row.images.map(name)
        guard row.op == "put", let body = row.body else { return sealed }
        // The fields it changed ("fields:title,content"; "fields*": every field), a line break, the body.
        let head = row.fields.map { "fields:" + $0.joined(separator: ",") } ?? "fields*"
        let plaintext = Array(head.utf8) + [10] + Array(body.utf8)
        let box = SyncCrypto.seal(
            SyncCrypto.padded(plaintext), key: key,
            associated: identity(row.domain, row.entity, device: device, deviceSeq: row.deviceSeq))
        sealed.body = "{\"id\":\(Self.quoted(row.entity)),\"sealed\":\"\(Data(box).base64EncodedString())\"}"
        sealed.fields = nil
        return sealed
    }

    /// The base64 text of a sealed body, as PostgreSQL gives it back (`{"id": …, "sealed": "…"}`): found
    /// by its key, a JSON decoder's work saved on every row of a pull (base64 has no quotes nor escapes).
    static func sealedText(_ body: String) -> Substring? {
        let utf8 = body.utf8
        for key in ["\"sealed\": \"", "\"sealed\":\""] {
            guard let found = body.firstRange(of: key) else { continue }
            guard let end = utf8[found.upperBound...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return body[found.upperBound..<end]
        }
        return nil
    }

    /// `row` as the device wrote it: a private put opened (its body and the fields it changed), or marked
    /// `tampered` when it does not open (a byte changed, a ciphertext moved from another row, not sealed).
    func open(_ row: PulledRow) -> PulledRow {
        guard Self.privateDomains.contains(row.domain), row.op == "put", let body = row.body else { return row }
        var opened = row
        guard let sealed = Self.sealedText(body), let box = Data(base64Encoded: String(sealed)),
            let padded = SyncCrypto.open(
                Array(box), key: key, associated: identity(row.domain, row.entity, device: row.device, deviceSeq: row.deviceSeq)),
            let plaintext = SyncCrypto.unpadded(padded), let newline = plaintext.firstIndex(of: 10)
        else {
            opened.body = nil
            opened.fault = "tampered: its sealed body does not open with the account's key"
            return opened
        }
        let head = String(decoding: plaintext[..<newline], as: UTF8.self)
        opened.fields = head.hasPrefix("fields:") ? head.dropFirst(7).split(separator: ",").map(String.init) : nil
        opened.body = String(decoding: plaintext[(newline + 1)...], as: UTF8.self)
        return opened
    }

    /// A photo's bytes as PostgreSQL keeps them: padded to 64 KiB and sealed, bound to its SHA-256.
    func seal(image bytes: [UInt8], sha256: String) -> [UInt8] {
        SyncCrypto.seal(SyncCrypto.padded(bytes, block: 65_536), key: key, associated: Array("satchel/1|\(account)|image|\(sha256)".utf8))
    }

    /// A photo's bytes, if `sealed` opens as the photo named `sha256`.
    func open(image sealed: [UInt8], sha256: String) -> [UInt8]? {
        SyncCrypto.open(sealed, key: key, associated: Array("satchel/1|\(account)|image|\(sha256)".utf8))
            .flatMap { SyncCrypto.unpadded($0, block: 65_536) }
    }

    static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
