import Dispatch
import Domain
import Synchronization

/// End-to-end encryption of the account's private apps, as this device stands with it (docs/protocol.md,
/// "End-to-end encryption"). The account's key is kept in PostgreSQL only wrapped by a key its person's
/// passphrase gives; a device that has unwrapped it keeps it in its own database and seals with it.
extension SyncService {
    /// Where this device stands with its account's encryption (`sync.status`'s `encryption` and `state`).
    public enum Encryption: String, Sendable {
        /// Not known yet (PostgreSQL not reached since the start).
        case unknown
        /// The account has no key: its rows travel as they are.
        case off
        /// The account is encrypted and this device has not unlocked it: nothing private goes or comes.
        case locked
        /// Unlocked: private rows and photos are sealed here and opened here.
        case on
    }

    /// The account's key as PostgreSQL keeps it: wrapped, with what unwraps it.
    struct AccountKey: Sendable, Equatable {
        var salt: [UInt8]
        var passes: Int
        var memory: Int
        var wrapped: [UInt8]
        var check: [UInt8]
    }

    struct Sealing: Sendable {
        var encryption = Encryption.unknown
        var key: [UInt8]?
        /// A key unwrapped here that the device's database does not hold yet (``takeUnsavedKey()``).
        var unsaved = false
        /// This device made the account's key (turned encryption on): what the account has is sealed anew.
        var made = false
        /// Plaintext rows PostgreSQL still keeps of the account (from before it was encrypted), when last
        /// asked, and when that was: an unlocked device lets go of those its sealed rows superseded.
        var plaintextLeft: Int64?
        var plaintextAsked: UInt64 = 0
        /// The passphrase the environment gave (`SATCHEL_SYNC_PASSPHRASE`), used when the link connects.
        var passphrase: String?
    }

    static let checkText = Array("satchel key check".utf8)
    /// The shortest passphrase an account's encryption is turned on or changed with, in characters.
    public static let leastPassphrase = 8

    private func checkIdentity() -> [UInt8] { Array("satchel/1|\(account)|key".utf8) }

    /// The key this device's database holds (read at start), and the passphrase of the environment.
    public func prepareSealing(key: [UInt8]?, passphrase: String?) {
        sealing.withLock {
            $0.key = key?.count == SyncCrypto.keyBytes ? key : nil
            $0.passphrase = passphrase?.isEmpty == false ? passphrase : nil
        }
    }

    /// A key unwrapped on the link's thread, for the loop to keep in the device's database (once); `made`:
    /// this device turned the account's encryption on with it.
    public func takeUnsavedKey() -> (key: [UInt8], made: Bool)? {
        sealing.withLock { state in
            guard state.unsaved, let key = state.key else { return nil }
            defer { (state.unsaved, state.made) = (false, false) }
            return (key, state.made)
        }
    }

    public var encryption: Encryption { sealing.withLock { $0.encryption } }

    /// The sealer of an unlocked device.
    var sealer: SyncSealer? {
        sealing.withLock { $0.encryption == .on ? $0.key.map { SyncSealer(key: $0, account: account) } : nil }
    }

    func readAccountKey(_ connection: PGConnection) throws(PGError) -> AccountKey? {
        guard let row = try connection.executeBinary(
            "SELECT salt, passes::text, memory::text, wrapped, check_sealed FROM satchel.account_key()", []
        ).first, let salt = row[0], let passes = row[1], let memory = row[2], let wrapped = row[3], let check = row[4]
        else { return nil }
        return AccountKey(
            salt: salt, passes: Int(String(decoding: passes, as: UTF8.self)) ?? 0,
            memory: Int(String(decoding: memory, as: UTF8.self)) ?? 0, wrapped: wrapped, check: check)
    }

    /// Where this device stands, from the account's key in PostgreSQL: off without one; on when the key it
    /// holds opens the key's check (or the environment's passphrase unwraps it); else locked, or wrong.
    func refreshSealing(_ connection: PGConnection) throws(PGError) {
        let found = try readAccountKey(connection)
        let (key, passphrase) = sealing.withLock { ($0.key, $0.passphrase) }
        guard let found else {
            sealing.withLock { $0.encryption = .off }
            if let passphrase, passphrase.count >= Self.leastPassphrase { _ = try? turnOn(connection, passphrase: passphrase) }
            return
        }
        guard SyncCrypto.isAvailable else {
            sealing.withLock { $0.encryption = .locked }
            update { $0.problem = .encryptionUnavailable; $0.lastError = "libsodium (Debian's libsodium23) is not installed" }
            return
        }
        if let key, SyncCrypto.open(found.check, key: key, associated: checkIdentity()) == Self.checkText {
            sealing.withLock { $0.encryption = .on }
            return
        }
        sealing.withLock { $0.encryption = .locked }
        if let passphrase, let unwrapped = unwrap(found, passphrase: passphrase) {
            sealing.withLock {
                ($0.key, $0.unsaved, $0.encryption) = (unwrapped, true, .on)
            }
        } else if passphrase != nil {
            update { $0.problem = .wrongPassphrase; $0.lastError = "the passphrase does not unlock \(account)'s encrypted apps" }
        }
    }

    private func unwrap(_ found: AccountKey, passphrase: String) -> [UInt8]? {
        guard let wrapping = SyncCrypto.derive(passphrase: passphrase, salt: found.salt, passes: UInt64(found.passes), memory: found.memory),
            let key = SyncCrypto.open(found.wrapped, key: wrapping, associated: checkIdentity()),
            SyncCrypto.open(found.check, key: key, associated: checkIdentity()) == Self.checkText
        else { return nil }
        return key
    }

    private func wrapped(_ key: [UInt8], passphrase: String) -> AccountKey? {
        let salt = SyncCrypto.random(SyncCrypto.saltBytes)
        guard let wrapping = SyncCrypto.derive(passphrase: passphrase, salt: salt, passes: SyncCrypto.passes, memory: SyncCrypto.memoryBytes)
        else { return nil }
        return AccountKey(
            salt: salt, passes: Int(SyncCrypto.passes), memory: SyncCrypto.memoryBytes,
            wrapped: SyncCrypto.seal(key, key: wrapping, associated: checkIdentity()),
            check: SyncCrypto.seal(Self.checkText, key: key, associated: checkIdentity()))
    }

    private func store(_ key: AccountKey, replacing: [UInt8]?, _ connection: PGConnection) throws(PGError) {
        try connection.executeBinary(
            "SELECT satchel.set_account_key($1, $2::integer, $3::bigint, $4, $5, $6)",
            [
                .bytes(key.salt), .text(String(key.passes)), .text(String(key.memory)), .bytes(key.wrapped), .bytes(key.check),
                replacing.map { .bytes($0) } ?? .text(nil),
            ])
    }

    /// Turns the account's encryption on: a new random key, wrapped by `passphrase`.
    private func turnOn(_ connection: PGConnection, passphrase: String) throws(PGError) -> [UInt8] {
        let key = SyncCrypto.random(SyncCrypto.keyBytes)
        guard let made = wrapped(key, passphrase: passphrase) else {
            throw PGError(kind: .statement, sqlState: nil, message: "Argon2id could not have the memory it needs")
        }
        try store(made, replacing: nil, connection)
        sealing.withLock { ($0.key, $0.unsaved, $0.made, $0.encryption) = (key, true, true, .on) }
        update { if $0.problem == .wrongPassphrase { $0.problem = nil; $0.lastError = nil } }
        return key
    }

    /// What `sync.unlock` does, on a waiting thread: the account's key unwrapped with `passphrase` (the
    /// account turns encryption on with it when it has none yet). Answers where the device stands; throws
    /// `wrongPassphrase` for one that does not unwrap it.
    public func unlock(passphrase: String) throws(DomainError) -> Encryption {
        guard SyncCrypto.isAvailable else { throw DomainError.upstreamUnavailable(reason: .syncRefused, detail: "libsodium is not installed") }
        return try withLinkError { () throws(PGError) -> Encryption in
            try withRoundConnection { connection throws(PGError) -> Encryption in
                guard let found = try readAccountKey(connection) else {
                    // Turning encryption on: a passphrase that guards the account from then on is 8
                    // characters at least, as a new one is.
                    guard passphrase.count >= Self.leastPassphrase else { return .off }
                    _ = try turnOn(connection, passphrase: passphrase)
                    return .on
                }
                guard let key = unwrap(found, passphrase: passphrase) else {
                    // A device already unlocked stays so; one that is not says what stops it.
                    let unlocked = sealing.withLock { $0.encryption == .on }
                    if !unlocked {
                        sealing.withLock { $0.encryption = .locked }
                        update { $0.problem = .wrongPassphrase; $0.lastError = "the passphrase does not unlock \(account)'s encrypted apps" }
                    }
                    return .locked
                }
                sealing.withLock { ($0.key, $0.unsaved, $0.encryption) = (key, true, .on) }
                update { if $0.problem == .wrongPassphrase { $0.problem = nil; $0.lastError = nil } }
                return .on
            }
        }
    }

    /// A new passphrase for the account: its key wrapped anew (nothing is sealed again). `current` must
    /// unwrap the key as it is kept.
    public func changePassphrase(current: String, new: String) throws(DomainError) -> Bool {
        guard SyncCrypto.isAvailable else { throw DomainError.upstreamUnavailable(reason: .syncRefused, detail: "libsodium is not installed") }
        return try withLinkError { () throws(PGError) -> Bool in
            try withRoundConnection { connection throws(PGError) -> Bool in
                guard let found = try readAccountKey(connection), let key = unwrap(found, passphrase: current),
                    let made = wrapped(key, passphrase: new)
                else { return false }
                try store(made, replacing: found.wrapped, connection)
                return true
            }
        }
    }

    /// How often, at most, an unlocked device asks PostgreSQL to let go of plaintext its sealed rows
    /// superseded, while there is some (it can go only once every device of the account pulled it).
    static let plaintextInterval: UInt64 = 30_000_000_000

    /// Lets go of the account's plaintext rows that sealed ones superseded, once every device pulled them:
    /// on an unlocked device that has caught up, while PostgreSQL says some are left — after it pushed
    /// sealed rows, else at most every ``plaintextInterval`` (another device's pull may be what they wait
    /// for).
    func forgetPlaintext(_ connection: PGConnection, sealedPushed: Bool) throws(PGError) {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = sealing.withLock { state in
            state.plaintextLeft != 0
                && (state.plaintextLeft == nil || sealedPushed || now - state.plaintextAsked >= Self.plaintextInterval)
        }
        guard due else { return }
        let left = try connection.execute("SELECT satchel.forget_plaintext()", []).first?[0].flatMap { Int64($0) }
        sealing.withLock { ($0.plaintextLeft, $0.plaintextAsked) = (left, now) }
    }

    private func withLinkError<T>(_ body: () throws(PGError) -> T) throws(DomainError) -> T {
        do {
            return try body()
        } catch {
            update { $0.lastError = "\(target): \(error.message)" }
            if error.sqlState == SyncSchema.refused { throw .upstreamUnavailable(reason: .syncRefused, detail: error.message) }
            throw .upstreamUnavailable(reason: .syncUnreachable, detail: error.message)
        }
    }
}
