import CSodium

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libsodium's functions, from the library loaded the first time sync seals, opens or derives a key (an
/// account with end-to-end encryption): a satchel that never meets one never loads it.
struct LibSodium: @unchecked Sendable {
    let randomBytes: @convention(c) (UnsafeMutableRawPointer?, Int) -> Void
    let passwordHash:
        @convention(c) (
            UnsafeMutablePointer<UInt8>?, UInt64, UnsafePointer<CChar>?, UInt64, UnsafePointer<UInt8>?, UInt64, Int, Int32
        ) -> Int32
    let encrypt:
        @convention(c) (
            UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt64>?, UnsafePointer<UInt8>?, UInt64, UnsafePointer<UInt8>?,
            UInt64, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?
        ) -> Int32
    let decrypt:
        @convention(c) (
            UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt64>?, UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?,
            UInt64, UnsafePointer<UInt8>?, UInt64, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?
        ) -> Int32
    let deriveSubkey:
        @convention(c) (UnsafeMutablePointer<UInt8>?, Int, UInt64, UnsafePointer<CChar>?, UnsafePointer<UInt8>?) -> Int32
    let genericHash:
        @convention(c) (UnsafeMutablePointer<UInt8>?, Int, UnsafePointer<UInt8>?, UInt64, UnsafePointer<UInt8>?, Int) -> Int32
    let pad: @convention(c) (UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UInt8>?, Int, Int, Int) -> Int32
    let unpad: @convention(c) (UnsafeMutablePointer<Int>?, UnsafePointer<UInt8>?, Int, Int) -> Int32

    /// The library, loaded and started once (Swift makes a global's first use thread-safe); `nil` when it
    /// is not there.
    static let loaded: LibSodium? = load()

    private static func load() -> LibSodium? {
        guard let library = dlopen("libsodium.so.23", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libsodium.dylib", RTLD_NOW | RTLD_LOCAL)
        else { return nil }
        func function<T>(_ name: String) -> T? { dlsym(library, name).map { unsafeBitCast($0, to: T.self) } }
        typealias Start = @convention(c) () -> Int32
        guard let start: Start = function("sodium_init"), start() >= 0,
            let randomBytes: @convention(c) (UnsafeMutableRawPointer?, Int) -> Void = function("randombytes_buf"),
            let passwordHash:
                @convention(c) (
                    UnsafeMutablePointer<UInt8>?, UInt64, UnsafePointer<CChar>?, UInt64, UnsafePointer<UInt8>?, UInt64, Int, Int32
                ) -> Int32 = function("crypto_pwhash"),
            let encrypt:
                @convention(c) (
                    UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt64>?, UnsafePointer<UInt8>?, UInt64,
                    UnsafePointer<UInt8>?, UInt64, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?
                ) -> Int32 = function("crypto_aead_xchacha20poly1305_ietf_encrypt"),
            let decrypt:
                @convention(c) (
                    UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt64>?, UnsafeMutablePointer<UInt8>?,
                    UnsafePointer<UInt8>?, UInt64, UnsafePointer<UInt8>?, UInt64, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?
                ) -> Int32 = function("crypto_aead_xchacha20poly1305_ietf_decrypt"),
            let deriveSubkey:
                @convention(c) (UnsafeMutablePointer<UInt8>?, Int, UInt64, UnsafePointer<CChar>?, UnsafePointer<UInt8>?) -> Int32 =
                function("crypto_kdf_derive_from_key"),
            let genericHash:
                @convention(c) (UnsafeMutablePointer<UInt8>?, Int, UnsafePointer<UInt8>?, UInt64, UnsafePointer<UInt8>?, Int) -> Int32 =
                function("crypto_generichash"),
            let pad: @convention(c) (UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UInt8>?, Int, Int, Int) -> Int32 =
                function("sodium_pad"),
            let unpad: @convention(c) (UnsafeMutablePointer<Int>?, UnsafePointer<UInt8>?, Int, Int) -> Int32 =
                function("sodium_unpad")
        else { return nil }
        return LibSodium(
            randomBytes: randomBytes, passwordHash: passwordHash, encrypt: encrypt, decrypt: decrypt,
            deriveSubkey: deriveSubkey, genericHash: genericHash, pad: pad, unpad: unpad)
    }
}
