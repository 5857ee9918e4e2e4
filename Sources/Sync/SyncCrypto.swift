import CSodium
import Domain

/// The cryptography of end-to-end encrypted sync, all of it libsodium's: an account's key (256 random bits)
/// is wrapped with a key derived from the person's passphrase (Argon2id, ``passes`` passes over
/// ``memoryBytes``); a private row's body and a photo's bytes are each sealed with XChaCha20-Poly1305 under
/// a random nonce, the row's identity bound as associated data; a photo is named in PostgreSQL by a keyed
/// BLAKE2b hash of its SHA-256, so the server cannot tell a known photo by its hash.
enum SyncCrypto {
    static let keyBytes = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    static let saltBytes = Int(crypto_pwhash_SALTBYTES)
    static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
    /// Argon2id's cost: 3 passes over 64 MiB (libsodium's interactive limits are 2 passes over 64 MiB),
    /// paid once per unlock and once per passphrase set.
    static let passes: UInt64 = 3
    static let memoryBytes = 64 << 20

    /// Whether libsodium is on this machine (Debian's libsodium23): sealing, opening and deriving need it.
    static var isAvailable: Bool { LibSodium.loaded != nil }

    private static var sodium: LibSodium {
        guard let loaded = LibSodium.loaded else { preconditionFailure("libsodium is not installed: check isAvailable first") }
        return loaded
    }

    /// `count` random bytes.
    static func random(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        sodium.randomBytes(&bytes, count)
        return bytes
    }

    /// The key a passphrase wraps with: Argon2id over `salt`. `nil` when libsodium cannot have the memory.
    static func derive(passphrase: String, salt: [UInt8], passes: UInt64, memory: Int) -> [UInt8]? {
        guard salt.count == saltBytes else { return nil }
        var key = [UInt8](repeating: 0, count: keyBytes)
        let words = Array(passphrase.utf8)
        let done = words.withUnsafeBufferPointer { passphrase in
            passphrase.withMemoryRebound(to: CChar.self) { chars in
                sodium.passwordHash(
                    &key, UInt64(keyBytes), chars.baseAddress, UInt64(chars.count), salt, passes, memory,
                    crypto_pwhash_ALG_ARGON2ID13)
            }
        }
        return done == 0 ? key : nil
    }

    /// `plaintext` sealed under `key` with `associated` bound to it: a fresh nonce, then the ciphertext.
    static func seal(_ plaintext: [UInt8], key: [UInt8], associated: [UInt8]) -> [UInt8] {
        precondition(key.count == keyBytes, "a key is 32 bytes")
        let nonce = random(nonceBytes)
        var sealed = [UInt8](repeating: 0, count: plaintext.count + tagBytes)
        var length: UInt64 = 0
        _ = sodium.encrypt(
            &sealed, &length, plaintext, UInt64(plaintext.count), associated, UInt64(associated.count), nil, nonce, key)
        return nonce + sealed.prefix(Int(length))
    }

    /// What `sealed` holds, if it was sealed under `key` with `associated`: `nil` for anything else (a byte
    /// changed, another entity's ciphertext, another key).
    static func open(_ sealed: [UInt8], key: [UInt8], associated: [UInt8]) -> [UInt8]? {
        sealed.withUnsafeBytes { open($0, key: key, associated: associated) }
    }

    /// ``open(_:key:associated:)`` of bytes where they lie (a pulled row's, decoded from base64).
    static func open(_ sealed: UnsafeRawBufferPointer, key: [UInt8], associated: [UInt8]) -> [UInt8]? {
        precondition(key.count == keyBytes, "a key is 32 bytes")
        guard sealed.count >= nonceBytes + tagBytes, let start = sealed.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return nil
        }
        var plaintext = [UInt8](repeating: 0, count: sealed.count - nonceBytes - tagBytes)
        var length: UInt64 = 0
        let result = sodium.decrypt(
            &plaintext, &length, nil, start + nonceBytes, UInt64(sealed.count - nonceBytes), associated,
            UInt64(associated.count), start, key)
        guard result == 0 else { return nil }
        if Int(length) < plaintext.count { plaintext.removeLast(plaintext.count - Int(length)) }
        return plaintext
    }

    /// A subkey of `key` for one purpose (libsodium's key derivation: `number` in the context "satchel").
    static func subkey(_ key: [UInt8], number: UInt64) -> [UInt8] {
        precondition(key.count == keyBytes, "a key is 32 bytes")
        var subkey = [UInt8](repeating: 0, count: keyBytes)
        let context = Array("satchel\0".utf8).map { CChar(bitPattern: $0) }
        _ = sodium.deriveSubkey(&subkey, keyBytes, number, context, key)
        return subkey
    }

    /// A keyed BLAKE2b-256 hash of `text`, in hex: a photo's name in PostgreSQL, by its SHA-256.
    static func keyedName(_ text: String, key: [UInt8]) -> String {
        precondition(key.count == keyBytes, "a key is 32 bytes")
        var hash = [UInt8](repeating: 0, count: 32)
        let bytes = Array(text.utf8)
        _ = sodium.genericHash(&hash, 32, bytes, UInt64(bytes.count), key, keyBytes)
        return Hex.encode(hash)
    }

    /// `bytes` padded to the size bucket its length falls in (a multiple of 64 bytes up to 1 KiB, of 256 up
    /// to 4 KiB, then a power of two; or a multiple of `block`), so a sealed size says only the bucket.
    static func padded(_ bytes: [UInt8], block: Int? = nil) -> [UInt8] {
        let bucket = bucket(above: bytes.count, block: block)
        var buffer = bytes + [UInt8](repeating: 0, count: bucket - bytes.count)
        var length = 0
        _ = sodium.pad(&length, &buffer, bytes.count, bucket, buffer.count)
        return Array(buffer.prefix(length))
    }

    /// `padded` without its padding: `nil` when it is not padded so.
    static func unpadded(_ padded: [UInt8], block: Int? = nil) -> [UInt8]? {
        unpaddedLength(padded, block: block).map { Array(padded.prefix($0)) }
    }

    /// How long `padded` is without its padding: `nil` when it is not padded so.
    static func unpaddedLength(_ padded: [UInt8], block: Int? = nil) -> Int? {
        guard !padded.isEmpty, bucket(above: padded.count - 1, block: block) == padded.count else { return nil }
        var length = 0
        guard sodium.unpad(&length, padded, padded.count, padded.count) == 0 else { return nil }
        return length
    }

    /// The smallest bucket more than `count` bytes long.
    private static func bucket(above count: Int, block: Int?) -> Int {
        if let block { return (count / block + 1) * block }
        var bucket = 64
        while bucket <= count { bucket = bucket < 1024 ? bucket + 64 : bucket < 4096 ? bucket + 256 : bucket * 2 }
        return bucket
    }
}
