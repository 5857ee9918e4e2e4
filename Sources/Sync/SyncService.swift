import Dispatch
import Domain
import Synchronization

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

/// A device's link to the shared PostgreSQL database (`--sync URL`). A thread of its own keeps a connection
/// that checks the schema (it never makes it: `satchel sync-setup` does), registers the device, and listens
/// for other devices' pushes (`LISTEN satchel_changes`), trying again, less and less often, while
/// PostgreSQL cannot be reached. Each time there may be something to pull (a push elsewhere, a connection
/// made again) ``wakeDescriptor`` turns readable, and the server loop runs a round: ``exchange(_:uploads:fetch:cursor:limit:countRemaining:)``
/// on a waiting thread, with a second connection. The request path never waits on any of it.
public final class SyncService: Sendable {
    /// What the schema in PostgreSQL is, as this satchel sees it.
    public enum SchemaState: String, Sendable {
        case unknown, ok, missing, older, newer
    }

    /// What stops sync and will not fix itself by waiting (`sync.status`'s `reason`).
    public enum Problem: String, Sendable, CaseIterable {
        case authenticationFailed, databaseMissing, tlsRequired, unsafeRole, schemaMissing, schemaOlder
        case schemaNewer, wrongRole, quotaExceeded
        /// The passphrase given does not unlock the account's encrypted apps.
        case wrongPassphrase
        /// The account is encrypted and libsodium is not on this machine.
        case encryptionUnavailable
    }

    public struct Status: Sendable, Equatable {
        public var connected = false
        public var schema = SchemaState.unknown
        /// When it last reached PostgreSQL with a usable schema (milliseconds since 1970).
        public var lastSuccess: Int64?
        /// The last failure, in words (never a password).
        public var lastError: String?
        /// What stops sync until a person acts (or, for a quota, a while passes).
        public var problem: Problem?
        /// A pull under way: rows of the log pulled, of those there were when it started.
        public var progress: (pulled: Int64, total: Int64)?

        public static func == (a: Status, b: Status) -> Bool {
            a.connected == b.connected && a.schema == b.schema && a.lastSuccess == b.lastSuccess
                && a.lastError == b.lastError && a.problem == b.problem && a.progress?.pulled == b.progress?.pulled
                && a.progress?.total == b.progress?.total
        }
    }

    /// Who and where, from the URL (never the password).
    public let target: PGTarget
    /// The account: the role the URL names, or the one libpq logs in as without it (`PGUSER`, else the
    /// system user's name).
    public let account: String
    public let device: String
    let conninfo: String
    private let state = Mutex(Status())
    /// Where this device stands with its account's encryption (SyncService+Sealing.swift).
    let sealing = Mutex(Sealing())
    let stopping = Atomic<Bool>(false)
    /// Read end: readable when a round may find something. Write end: the link's thread.
    public let wakeDescriptor: Int32
    private let wakeWriter: Int32
    /// The connection rounds use (one round at a time), made when first needed and again after a failure.
    private let roundConnection = Mutex<PGConnectionBox?>(nil)

    public init(url: String, device: String) throws(PGError) {
        target = try PGTarget.parse(url).get()
        conninfo = url
        self.device = device
        account =
            target.user ?? getenv("PGUSER").map { String(cString: $0) }
            ?? getpwuid(geteuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? ""
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw PGError(kind: .connection, sqlState: nil, message: "cannot make a pipe (errno \(errno))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        (wakeDescriptor, wakeWriter) = (ends[0], ends[1])
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriter)
    }

    public var status: Status { state.withLock { $0 } }

    /// A pull under way (`nil`: none).
    public func report(progress: (pulled: Int64, total: Int64)?) {
        update { $0.progress = progress }
    }

    /// Starts the thread that keeps the link.
    public func start() {
        Thread(self).start()
    }

    /// Asks the thread to end (at its next wake-up).
    public func stop() {
        stopping.store(true, ordering: .relaxed)
    }

    /// Empties the wake-up pipe (the loop does, before it runs the round it asks for).
    public func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wakeDescriptor, &bytes, bytes.count) > 0 {}
    }

    /// Asks the loop for a round (the link does when another device pushed; `sync.unlock` once unlocked).
    public func wakeSoon() { wake() }

    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    // MARK: A round

    /// What a round brought: rows of the log after the device's cursor (its own account's and every
    /// account's shared ones, in the log's order), and whether there may be more; the images asked for (by
    /// SHA-256, those PostgreSQL has); the images the rows to push show that PostgreSQL lacks (`needUpload`:
    /// then nothing was pushed or pulled, the round goes again with them); or the row PostgreSQL refused
    /// (`refused`: nothing was pushed; the index of the row in the push, and why).
    public struct Pulled: Sendable {
        public var rows: [PulledRow]
        public var more: Bool
        public var fetched: [(sha256: String, bytes: [UInt8])] = []
        public var needUpload: [String] = []
        public var refused: Refusal?
        /// Rows of the log still to pull after the cursor sent (when asked for: a pull's progress).
        public var remaining: Int64?
        /// Nothing was pushed or pulled, and the round should go again as it is (the account turned
        /// encryption on meanwhile: what to push is read again).
        public var again = false
    }

    /// A row of a push that PostgreSQL's rules refuse (the whole push was refused with it).
    public struct Refusal: Sendable, Equatable {
        public var index: Int
        public var reason: String
    }

    /// Bodies pulled in one round at most, in bytes (past the first row): a round's memory stays bounded
    /// whatever the rows hold.
    public static let pullBytes = 16 << 20

    /// Uploads `uploads` (image bytes by content, each once per account), fetches the images `fetch` names,
    /// then, once every image the rows show is in PostgreSQL, pushes `rows` through `satchel.push` (which
    /// checks each and gives it its place in the log; a row pushed before adds nothing; PostgreSQL tells the
    /// listening devices), and pulls what the account may read after `cursor` (a JSON object: the last row
    /// pulled of each account), at most `limit` rows and ``pullBytes`` of bodies.
    public func exchange(
        _ rows: [PushRow], uploads: [(sha256: String, bytes: [UInt8])] = [], fetch: [String] = [], cursor: String,
        limit: Int, countRemaining: Bool = false
    ) throws(DomainError) -> Pulled {
        let known = status
        if known.schema == .newer {
            // Rows in the form of an older schema would be garbage in a newer one: nothing is sent.
            throw .upstreamUnavailable(reason: .syncSchema, detail: known.lastError)
        }
        do {
            return try withRoundConnection { connection throws(PGError) in
                if encryption == .unknown { try refreshSealing(connection) }
                // Unlocked, what goes is sealed and what comes is opened; locked, nothing private goes (the
                // loop held it back) and only other accounts' shared rows come.
                let sealer = self.sealer
                let locked = encryption == .locked
                var rows = rows
                var uploads = uploads
                var fetch = fetch
                var names: [String: String] = [:]  // a photo's name in PostgreSQL: its SHA-256
                if let sealer {
                    for sha256 in uploads.map(\.sha256) + fetch + rows.flatMap(\.images) { names[sealer.name(sha256)] = sha256 }
                    rows = rows.map { sealer.seal($0, device: device) }
                    uploads = uploads.map { (sealer.name($0.sha256), sealer.seal(image: $0.bytes, sha256: $0.sha256)) }
                    fetch = fetch.map(sealer.name)
                } else if locked && rows.contains(where: { SyncSealer.privateDomains.contains($0.domain) }) {
                    // Found locked only now (the loop read the batch before): nothing goes; the round goes
                    // again, holding the private changes back.
                    var pulled = Pulled(rows: [], more: true)
                    pulled.again = true
                    return pulled
                }
                var refusedImages: Set<String> = []
                for upload in uploads {
                    do throws(PGError) {
                        try connection.executeBinary(
                            "SELECT satchel.put_image($1, $2)", [.text(upload.sha256), .bytes(upload.bytes)])
                    } catch {
                        guard error.sqlState == SyncSchema.refused else { throw error }
                        refusedImages.insert(upload.sha256)  // the row that shows it is refused below
                    }
                }
                var fetched: [(String, [UInt8])] = []
                if !fetch.isEmpty {
                    for values in try connection.executeBinary(
                        "SELECT sha256, data FROM satchel.get_images($1::text[])", [.text(Self.array(fetch))])
                    {
                        guard let name = values[0], var bytes = values[1] else { continue }
                        var sha256 = String(decoding: name, as: UTF8.self)
                        if let sealer {
                            // A photo that does not open is left out: the row that shows it is skipped.
                            guard let plain = names[sha256], let opened = sealer.open(image: bytes, sha256: plain) else { continue }
                            (sha256, bytes) = (plain, opened)
                        }
                        fetched.append((sha256, bytes))
                    }
                }
                let shown = Set(rows.flatMap(\.images))
                if !shown.isEmpty {
                    let present = try connection.execute(
                        "SELECT satchel.images_present($1::text[])", [Self.array(Array(shown))])
                    let absent = shown.subtracting(present.compactMap { $0[0] }).subtracting(refusedImages)
                    if !absent.isEmpty {
                        return Pulled(rows: [], more: false, fetched: fetched, needUpload: absent.map { names[$0] ?? $0 }.sorted())
                    }
                }
                if !rows.isEmpty {
                    do throws(PGError) {
                        // All rows in one call: one round trip, however many.
                        try connection.execute("SELECT satchel.push($1::uuid, $2::jsonb)", [device, Self.json(rows)])
                    } catch {
                        guard error.sqlState == SyncSchema.refused else { throw error }
                        let words = error.primary ?? error.message
                        if words.hasSuffix(SyncSchema.encryptedRefusal) {
                            // Another device turned encryption on meanwhile: nothing is refused; the round
                            // goes again, knowing.
                            try refreshSealing(connection)
                            var pulled = Pulled(rows: [], more: true, fetched: fetched)
                            pulled.again = true
                            return pulled
                        }
                        let index = Self.refusedRow(words) ?? 0
                        return Pulled(
                            rows: [], more: false, fetched: fetched, refused: Refusal(index: index, reason: words))
                    }
                }
                // Locked: the account's own rows wait (its cursor stays; PostgreSQL is not told of a pull).
                let found = try connection.execute(
                    locked
                        ? """
                        SELECT seq, device::text, device_seq, domain, entity, op, body, base,
                               array_to_string(fields, ','), account, bytes
                        FROM satchel.pull($2::jsonb, $3, $4) WHERE $1::uuid IS NOT NULL
                        """
                        : """
                        SELECT seq, device::text, device_seq, domain, entity, op, body, base,
                               array_to_string(fields, ','), account, bytes
                        FROM satchel.pull_as($1::uuid, $2::jsonb, $3, $4)
                        """,
                    [device, locked ? Self.passing(account, cursor) : cursor, String(limit), String(Self.pullBytes)])
                var pulled: [PulledRow] = []
                var bytes = 0
                for values in found {
                    let size = Int(values[10] ?? "") ?? 0
                    bytes += min(size, SyncSchema.Caps.bodyBytes)
                    pulled.append(
                        PulledRow(
                            seq: Int64(values[0] ?? "") ?? 0, device: values[1] ?? "", account: values[9] ?? "",
                            own: values[1] == device && values[9] == account,
                            deviceSeq: Int64(values[2] ?? "") ?? 0, domain: values[3] ?? "", entity: values[4] ?? "",
                            op: values[5] ?? "", body: values[6], base: values[7].flatMap { Int64($0) },
                            fields: values[8].map { $0.isEmpty ? [] : $0.split(separator: ",").map(String.init) },
                            bytes: size))
                }
                let more = found.count == limit || bytes >= Self.pullBytes
                if sealer != nil && !more {
                    try forgetPlaintext(connection, sealedPushed: rows.contains { SyncSealer.privateDomains.contains($0.domain) })
                }
                var remaining: Int64?
                if more && countRemaining {
                    remaining = try connection.execute("SELECT satchel.pending_rows($1::jsonb)", [cursor])
                        .first?[0].flatMap { Int64($0) }
                }
                update { $0.lastSuccess = Self.now(); $0.lastError = nil; $0.problem = nil; $0.connected = true }
                if let sealer { pulled = pulled.map(sealer.open) }
                return Pulled(rows: pulled, more: more, fetched: fetched, remaining: remaining)
            }
        } catch {
            let problem = Self.problem(error)
            update {
                $0.lastError = "\(target): \(error.message)"
                $0.problem = problem
                $0.progress = nil
                if problem == nil && error.kind == .connection { $0.connected = false }
            }
            if error.isMissingSchema { throw .upstreamUnavailable(reason: .syncSchema, detail: error.message) }
            if problem != nil { throw .upstreamUnavailable(reason: .syncRefused, detail: error.message) }
            throw .upstreamUnavailable(reason: .syncUnreachable, detail: error.message)
        }
    }

    /// `cursor` with `account`'s own rows passed over (a locked device pulls only the others' shared rows).
    static func passing(_ account: String, _ cursor: String) -> String {
        var positions = (try? JSONDecoder().decode([String: Int64].self, from: Data(cursor.utf8))) ?? [:]
        positions[account] = Int64.max
        return String(decoding: (try? JSONEncoder().encode(positions)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The row a refusal names ("row 3: …").
    static func refusedRow(_ words: String) -> Int? {
        guard words.hasPrefix("row ") else { return nil }
        return Int(words.dropFirst(4).prefix { $0.isNumber })
    }

    /// What will not fix itself by waiting, as `sync.status` names it; `nil` for what may (PostgreSQL is
    /// away, a connection was lost).
    static func problem(_ error: PGError) -> Problem? {
        if error.sqlState == SyncSchema.quotaExceeded { return .quotaExceeded }
        if error.sqlState == unsafeRoleState { return .unsafeRole }
        if error.isMissingSchema { return .schemaMissing }
        guard error.kind == .connection else { return nil }
        let words = error.message.lowercased()
        if words.contains("does not exist") && words.contains("database") { return .databaseMissing }
        if words.contains("no encryption") || words.contains("ssl") || words.contains("certificate") {
            return .tlsRequired
        }
        if words.contains("authentication failed") || words.contains("no password supplied")
            || words.contains("pg_hba.conf") || (words.contains("role") && words.contains("does not exist"))
            || words.contains("not permitted to log in")
        {
            return .authenticationFailed
        }
        return nil
    }

    /// Hex digests as a PostgreSQL array literal (`{a,b}`).
    static func array(_ hashes: [String]) -> String {
        "{" + hashes.filter { $0.allSatisfy(\.isHexDigit) }.joined(separator: ",") + "}"
    }

    /// `rows` as one JSON array of objects (each body, already JSON, as it is).
    static func json(_ rows: [PushRow]) -> String {
        var text = "["
        for (index, row) in rows.enumerated() {
            if index > 0 { text += "," }
            text += #"{"device_seq":\#(row.deviceSeq),"domain":"\#(escaped(row.domain))","entity":"\#(escaped(row.entity))","#
            text += #""op":"\#(escaped(row.op))","body":\#(row.body ?? "null"),"base":\#(row.base.map { String($0) } ?? "null"),"#
            let fields = row.fields.map { "[" + $0.map { "\"\(escaped($0))\"" }.joined(separator: ",") + "]" }
            text += #""fields":\#(fields ?? "null"),"images":["#
            text += row.images.map { "\"\(escaped($0))\"" }.joined(separator: ",") + "]}"
        }
        return text + "]"
    }

    /// `text` as the inside of a JSON string.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Runs `body` with the rounds' connection, made now if there is none; a connection that fails is let go.
    func withRoundConnection<T>(_ body: (PGConnection) throws(PGError) -> T) throws(PGError) -> T {
        let box = try roundConnection.withLock { held throws(PGError) -> PGConnectionBox in
            if let held { return held }
            let connection = try PGConnection(conninfo)
            try checkRole(connection)
            // This device may push before the link has registered it.
            try connection.execute("SELECT satchel.register($1::uuid)", [device])
            let made = PGConnectionBox(connection)
            held = made
            return made
        }
        do {
            return try body(box.connection)
        } catch {
            if error.kind == .connection { roundConnection.withLock { $0 = nil } }
            throw error
        }
    }

    /// Refuses to sync as a role that could read or change other accounts' rows: a superuser, a role
    /// with `BYPASSRLS`, or the schema's owner (or a member of it). Says so in `sync.status`.
    func checkRole(_ connection: PGConnection) throws(PGError) {
        let found = try connection.execute(
            """
            SELECT r.rolsuper, r.rolbypassrls,
                   coalesce((SELECT pg_has_role(session_user, n.nspowner, 'MEMBER') FROM pg_namespace n
                             WHERE n.nspname = 'satchel'), false)
            FROM pg_roles r WHERE r.rolname = session_user
            """)
        guard let row = found.first else { return }
        let why =
            row[0] == "t" ? "a superuser" : row[1] == "t" ? "a role with BYPASSRLS" : row[2] == "t" ? "the sync schema's owner" : nil
        guard let why else { return }
        throw PGError(
            kind: .statement, sqlState: Self.unsafeRoleState,
            message: "\(connection.user) is \(why): a device never syncs as one (it could read every account); give this device a role of its own")
    }

    /// The state ``checkRole(_:)`` refuses with (not one PostgreSQL uses).
    static let unsafeRoleState = "SY900"

    func update(_ body: (inout Status) -> Void) {
        state.withLock { body(&$0) }
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

}

/// A connection held behind the service's lock (one round uses it at a time).
private final class PGConnectionBox: @unchecked Sendable {
    let connection: PGConnection

    init(_ connection: PGConnection) { self.connection = connection }
}
