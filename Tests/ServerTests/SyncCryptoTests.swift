@testable import Domain
import Foundation
import Testing

@testable import Sync

/// libsodium as end-to-end encrypted sync uses it: a sealed row opens only under its key and its identity;
/// a passphrase derives the same key from the same salt; sizes say only their bucket.
@Suite struct SyncCryptoTests {
    @Test func aSealedTextOpensOnlyUnderItsKeyAndItsIdentity() throws {
        let key = SyncCrypto.random(SyncCrypto.keyBytes)
        let identity = Array("alice|notes|note_1".utf8)
        let secret = Array("Dear diary: the lighthouse at dawn".utf8)
        let sealed = SyncCrypto.seal(secret, key: key, associated: identity)
        #expect(sealed.count == secret.count + SyncCrypto.nonceBytes + SyncCrypto.tagBytes)
        #expect(!Data(sealed).contains(Data("lighthouse".utf8)))
        #expect(SyncCrypto.open(sealed, key: key, associated: identity) == secret)
        // Each seal has its own nonce: the same text never seals the same twice.
        #expect(SyncCrypto.seal(secret, key: key, associated: identity) != sealed)
        // A flipped byte, another entity's identity, another key, a cut: none opens.
        for index in [0, SyncCrypto.nonceBytes, sealed.count - 1] {
            var flipped = sealed
            flipped[index] ^= 0x01
            #expect(SyncCrypto.open(flipped, key: key, associated: identity) == nil)
        }
        #expect(SyncCrypto.open(sealed, key: key, associated: Array("alice|notes|note_2".utf8)) == nil)
        #expect(SyncCrypto.open(sealed, key: SyncCrypto.random(SyncCrypto.keyBytes), associated: identity) == nil)
        #expect(SyncCrypto.open(Array(sealed.prefix(30)), key: key, associated: identity) == nil)
    }

    @Test func aSealedRowOpensAsPostgreSQLGivesItBackAndNothingElseDoes() throws {
        let sealer = SyncSealer(key: SyncCrypto.random(SyncCrypto.keyBytes), account: "alice")
        let body = #"{"id":"note_1","title":"Lighthouse","content":"at dawn"}"#
        let row = PushRow(deviceSeq: 7, domain: "notes", entity: "note_1", op: "put", body: body, base: 3, fields: ["title"])
        let sealed = try #require(sealer.seal(row, device: "d1").body)
        let text = try #require(sealed.split(separator: "\"").dropLast().last)
        func pulled(_ body: String) -> PulledRow {
            PulledRow(seq: 9, device: "d1", own: false, deviceSeq: 7, domain: "notes", entity: "note_1", op: "put", body: body, base: 3)
        }
        // As pushed, and as jsonb writes it back (a space after each colon and comma).
        for form in [sealed, #"{"id": "note_1", "sealed": "\#(text)"}"#] {
            let opened = sealer.open(pulled(form))
            #expect(opened.body == body && opened.fields == ["title"] && opened.fault == nil, "\(form)")
        }
        // Not sealed, a quote short, another key's name: refused, never shown.
        for form in [body, #"{"id": "note_1", "sealed": "\#(text)}"#, #"{"id": "note_1", "sealing": "\#(text)"}"#, ""] {
            let opened = sealer.open(pulled(form))
            #expect(opened.body == nil && opened.fault?.hasPrefix("tampered") == true, "\(form)")
        }
    }

    @Test func aPassphraseGivesTheSameKeyFromTheSameSaltAndAnotherFromAnother() throws {
        let salt = SyncCrypto.random(SyncCrypto.saltBytes)
        let key = try #require(
            SyncCrypto.derive(passphrase: "correct horse", salt: salt, passes: SyncCrypto.passes, memory: SyncCrypto.memoryBytes))
        #expect(key.count == SyncCrypto.keyBytes)
        #expect(SyncCrypto.derive(passphrase: "correct horse", salt: salt, passes: SyncCrypto.passes, memory: SyncCrypto.memoryBytes) == key)
        #expect(SyncCrypto.derive(passphrase: "correct horsE", salt: salt, passes: SyncCrypto.passes, memory: SyncCrypto.memoryBytes) != key)
        let otherSalt = SyncCrypto.random(SyncCrypto.saltBytes)
        #expect(SyncCrypto.derive(passphrase: "correct horse", salt: otherSalt, passes: SyncCrypto.passes, memory: SyncCrypto.memoryBytes) != key)
        #expect(SyncCrypto.derive(passphrase: "x", salt: [1, 2, 3], passes: 3, memory: 64 << 20) == nil, "a salt is 16 bytes")
    }

    @Test func paddingHidesASizeInItsBucketAndComesOffAgain() {
        for (length, bucket) in [(0, 64), (1, 64), (63, 64), (64, 128), (1023, 1024), (1024, 1280), (4095, 4096), (4096, 8192), (70_000, 131_072)] {
            let bytes = [UInt8](repeating: 7, count: length)
            let padded = SyncCrypto.padded(bytes)
            #expect(padded.count == bucket, "\(length)")
            #expect(SyncCrypto.unpadded(padded) == bytes, "\(length)")
        }
        #expect(SyncCrypto.unpadded([1, 2, 3]) == nil)
        #expect(SyncCrypto.unpadded([UInt8](repeating: 0, count: 64)) == nil, "no padding mark")
    }

    @Test func aPhotosNameIsKeyedSoItsHashSaysNothingWithoutTheKey() {
        let key = SyncCrypto.random(SyncCrypto.keyBytes)
        let sha256 = String(repeating: "ab", count: 32)
        let name = SyncCrypto.keyedName(sha256, key: SyncCrypto.subkey(key, number: 1))
        #expect(name.count == 64 && name.allSatisfy(\.isHexDigit))
        #expect(name == SyncCrypto.keyedName(sha256, key: SyncCrypto.subkey(key, number: 1)))
        #expect(name != sha256)
        #expect(name != SyncCrypto.keyedName(sha256, key: SyncCrypto.subkey(SyncCrypto.random(32), number: 1)))
        #expect(SyncCrypto.subkey(key, number: 1) != SyncCrypto.subkey(key, number: 2))
    }
}
