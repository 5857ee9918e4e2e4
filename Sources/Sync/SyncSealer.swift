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

    /// Where the base64 text of a sealed body lies, as PostgreSQL gives it back (`{"id": …, "sealed":
    /// "…"}`, `sealed` last: jsonb orders keys by length): between the last quote but one and the last,
    /// after the key. Found in the bytes, a JSON decoder's work saved on every row of a pull (base64 has no
    /// quotes nor escapes).
    static func sealedRange(_ body: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let quote = UInt8(ascii: "\"")
        var end = body.count - 1
        while end >= 0 && body[end] != quote { end -= 1 }
        var start = end - 1
        while start >= 0 && body[start] != quote { start -= 1 }
        guard start >= 0 else { return nil }
        var before = body[..<start]
        while let last = before.last, last == UInt8(ascii: " ") || last == UInt8(ascii: ":") { before = before.dropLast() }
        guard before.count >= 8, Array(before.suffix(8)) == Self.sealedKey else { return nil }
        return (start + 1)..<end
    }

    private static let sealedKey = Array("\"sealed\"".utf8)

    /// `row` as the device wrote it: a private put opened (its body and the fields it changed), or marked
    /// `tampered` when it does not open (a byte changed, a ciphertext moved from another row, not sealed).
    func open(_ row: PulledRow) -> PulledRow {
        guard Self.privateDomains.contains(row.domain), row.op == "put", var body = row.body else { return row }
        var opened = row
        let box = body.withUTF8 { bytes in
            Self.sealedRange(bytes).flatMap { Data(base64Encoded: Data(UnsafeBufferPointer(rebasing: bytes[$0]))) }
        }
        guard let box,
            let padded = box.withUnsafeBytes({
                SyncCrypto.open($0, key: key, associated: identity(row.domain, row.entity, device: row.device, deviceSeq: row.deviceSeq))
            }),
            let length = SyncCrypto.unpaddedLength(padded), let newline = padded[..<length].firstIndex(of: 10)
        else {
            opened.body = nil
            opened.fault = "tampered: its sealed body does not open with the account's key"
            return opened
        }
        let head = String(decoding: padded[..<newline], as: UTF8.self)
        opened.fields = head.hasPrefix("fields:") ? head.dropFirst(7).split(separator: ",").map(String.init) : nil
        opened.body = String(decoding: padded[(newline + 1)..<length], as: UTF8.self)
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
