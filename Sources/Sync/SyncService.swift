import Dispatch
import Domain
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A device's link to the shared PostgreSQL database (`--sync URL`). A thread of its own keeps a connection
/// that checks the schema (it never makes it: `satchel sync-setup` does), registers the device, and listens
/// for other devices' pushes (`LISTEN satchel_changes`), trying again, less and less often, while
/// PostgreSQL cannot be reached. Each time there may be something to pull (a push elsewhere, a connection
/// made again) ``wakeDescriptor`` turns readable, and the server loop runs a round: ``exchange(_:after:limit:)``
/// on a waiting thread, with a second connection. The request path never waits on any of it.
public final class SyncService: Sendable {
    /// What the schema in PostgreSQL is, as this satchel sees it.
    public enum SchemaState: String, Sendable {
        case unknown, ok, missing, older, newer
    }

    public struct Status: Sendable, Equatable {
        public var connected = false
        public var schema = SchemaState.unknown
        /// When it last reached PostgreSQL with a usable schema (milliseconds since 1970).
        public var lastSuccess: Int64?
        /// The last failure, in words (never a password).
        public var lastError: String?
    }

    /// Who and where, from the URL (never the password).
    public let target: PGTarget
    /// The account: the role the URL names, or the one libpq logs in as without it (`PGUSER`, else the
    /// system user's name).
    public let account: String
    public let device: String
    private let conninfo: String
    private let state = Mutex(Status())
    private let stopping = Atomic<Bool>(false)
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

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    // MARK: A round

    /// What a round brought: other devices' rows, the last row looked at, and whether there may be more;
    /// the images asked for (by SHA-256, those PostgreSQL has); and the images the rows to push show that
    /// PostgreSQL lacks (`needUpload`: then nothing was pushed or pulled, the round goes again with them).
    public struct Pulled: Sendable {
        public var rows: [PulledRow]
        public var through: Int64
        public var more: Bool
        public var fetched: [(sha256: String, bytes: [UInt8])] = []
        public var needUpload: [String] = []
        /// The newest row of the log this account may read (when there is more to pull: for progress).
        public var newest: Int64 = 0
    }

    /// Uploads `uploads` (image bytes by content, each once per account), fetches the images `fetch` names,
    /// then, once every image the rows show is in PostgreSQL, pushes `rows` (in one transaction, under the
    /// lock that keeps the log's order that of its commits; a row pushed before adds nothing), tells the
    /// listening devices, and pulls what was pushed after `after` (at most `limit` rows).
    public func exchange(
        _ rows: [PushRow], uploads: [(sha256: String, bytes: [UInt8])] = [], fetch: [String] = [], after: Int64,
        limit: Int
    ) throws(DomainError) -> Pulled {
        do {
            return try withRoundConnection { connection throws(PGError) in
                if !uploads.isEmpty {
                    try connection.transaction { () throws(PGError) in
                        for upload in uploads {
                            try connection.executeBinary(
                                "INSERT INTO satchel.images(sha256, data) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                                [.text(upload.sha256), .bytes(upload.bytes)])
                        }
                    }
                }
                var fetched: [(String, [UInt8])] = []
                if !fetch.isEmpty {
                    for values in try connection.executeBinary(
                        "SELECT sha256, data FROM satchel.images WHERE sha256 = ANY($1::text[])", [.text(Self.array(fetch))])
                    {
                        guard let name = values[0], let bytes = values[1] else { continue }
                        fetched.append((String(decoding: name, as: UTF8.self), bytes))
                    }
                }
                let shown = Set(rows.flatMap(\.images))
                if !shown.isEmpty {
                    let present = try connection.execute(
                        "SELECT sha256 FROM satchel.images WHERE sha256 = ANY($1::text[])", [Self.array(Array(shown))])
                    let absent = shown.subtracting(present.compactMap { $0[0] })
                    if !absent.isEmpty {
                        return Pulled(rows: [], through: after, more: false, fetched: fetched, needUpload: absent.sorted())
                    }
                }
                if !rows.isEmpty {
                    try connection.transaction { () throws(PGError) in
                        try connection.execute("SELECT pg_advisory_xact_lock(hashtext('satchel changes'))")
                        // All rows in one statement: one round trip, however many.
                        try connection.execute(
                            """
                            INSERT INTO satchel.changes(device, device_seq, domain, entity, op, body, base, fields)
                            SELECT $1, r.device_seq, r.domain, r.entity, r.op, r.body, r.base, r.fields
                            FROM jsonb_to_recordset($2::jsonb)
                                AS r(device_seq bigint, domain text, entity text, op text, body jsonb, base bigint,
                                     fields text[])
                            ORDER BY abs(r.device_seq), r.device_seq DESC
                            ON CONFLICT (device, device_seq) DO NOTHING
                            """,
                            [device, Self.json(rows)])
                        try connection.execute("NOTIFY satchel_changes")
                    }
                }
                let found = try connection.execute(
                    """
                    SELECT seq, device::text, device_seq, domain, entity, op, body::text, base,
                           array_to_string(fields, ','), account
                    FROM satchel.changes WHERE seq > $1 ORDER BY seq LIMIT $2
                    """,
                    [String(after), String(limit)])
                var pulled: [PulledRow] = []
                var through = after
                for values in found {
                    let seq = Int64(values[0] ?? "") ?? through
                    through = max(through, seq)
                    pulled.append(
                        PulledRow(
                            seq: seq, device: values[1] ?? "", account: values[9] ?? "", own: values[1] == device,
                            deviceSeq: Int64(values[2] ?? "") ?? 0, domain: values[3] ?? "", entity: values[4] ?? "",
                            op: values[5] ?? "", body: values[6], base: values[7].flatMap { Int64($0) },
                            fields: values[8].map { $0.isEmpty ? [] : $0.split(separator: ",").map(String.init) }))
                }
                var newest = through
                if found.count == limit {
                    let last = try connection.execute("SELECT max(seq) FROM satchel.changes")
                    newest = max(through, last.first?[0].flatMap { Int64($0) } ?? through)
                }
                update { $0.lastSuccess = Self.now(); $0.lastError = nil; $0.connected = true }
                return Pulled(rows: pulled, through: through, more: found.count == limit, fetched: fetched, newest: newest)
            }
        } catch {
            update { $0.lastError = "\(target): \(error.message)" }
            if error.isMissingSchema { throw .upstreamUnavailable(reason: .syncSchema, detail: error.message) }
            throw .upstreamUnavailable(reason: .syncUnreachable, detail: error.message)
        }
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
            text += #""fields":\#(fields ?? "null")}"#
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
    private func withRoundConnection<T>(_ body: (PGConnection) throws(PGError) -> T) throws(PGError) -> T {
        let box = try roundConnection.withLock { held throws(PGError) -> PGConnectionBox in
            if let held { return held }
            let connection = try PGConnection(conninfo)
            // This device may push before the link has registered it.
            try connection.execute("INSERT INTO satchel.devices(id) VALUES ($1) ON CONFLICT (id) DO NOTHING", [device])
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

    // MARK: The link

    /// One attempt: connect, check the schema, register this device, listen. Answers the connection.
    func connect() -> PGConnection? {
        do {
            let connection = try PGConnection(conninfo)
            let found = try SyncSchema.installedVersion(connection)
            let schema: SchemaState =
                found == SyncSchema.version ? .ok : found == 0 ? .missing : found < SyncSchema.version ? .older : .newer
            guard schema == .ok else {
                let advice =
                    schema == .newer
                    ? "the sync schema in \(target) is at version \(found), newer than this satchel's: use a newer satchel"
                    : schema == .missing
                        ? "\(target) has no sync schema yet: run `satchel sync-setup URL` as the database's owner"
                        : "the sync schema in \(target) is at version \(found), older than this satchel's \(SyncSchema.version): run `satchel sync-setup URL` as the database's owner"
                update { $0.connected = true; $0.schema = schema; $0.lastError = advice }
                return nil
            }
            guard connection.user == account else {
                // (A service file or a libpq default named another role than the one this device votes as.)
                update {
                    $0.connected = true
                    $0.lastError = "\(target) logged in as \(connection.user), not \(account): name the role in the URL"
                }
                return nil
            }
            try connection.execute("INSERT INTO satchel.devices(id) VALUES ($1) ON CONFLICT (id) DO NOTHING", [device])
            try connection.execute("LISTEN satchel_changes")
            update {
                $0.connected = true
                $0.schema = .ok
                $0.lastError = nil
                $0.lastSuccess = Self.now()
            }
            return connection
        } catch {
            update { $0.connected = false; $0.lastError = "\(target): \(error.message)" }
            return nil
        }
    }

    fileprivate func update(_ body: (inout Status) -> Void) {
        state.withLock { body(&$0) }
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// The link's thread: connects (waiting 1, 2, 4 … 30 seconds between tries while it cannot), then
    /// waits on the connection's socket for notifications, waking the loop for each batch of them.
    private final class Thread: @unchecked Sendable {
        let service: SyncService

        init(_ service: SyncService) { self.service = service }

        func start() {
            var thread = pthread_t()
            let box = Unmanaged.passRetained(self).toOpaque()
            pthread_create(&thread, nil, { raw in
                let me = Unmanaged<Thread>.fromOpaque(raw!).takeRetainedValue()
                me.run()
                return nil
            }, box)
            pthread_detach(thread)
        }

        func run() {
            var delay: UInt32 = 1
            var connection: PGConnection? = nil
            while !service.stopping.load(ordering: .relaxed) {
                guard let open = connection else {
                    connection = service.connect()
                    if connection == nil {
                        sleep(delay)
                        delay = min(delay * 2, 30)
                    } else {
                        delay = 1
                        service.wake()  // connected (again): whatever waits goes out, whatever came comes in
                    }
                    continue
                }
                var watch = pollfd(fd: open.socket, events: Int16(POLLIN), revents: 0)
                let ready = poll(&watch, 1, 2000)
                do {
                    if ready > 0, try open.takeNotifications() > 0 {
                        service.wake()
                    } else if ready == 0 {
                        try open.execute("SELECT 1")  // still there? A lost connection is said at once
                    }
                } catch {
                    service.update { $0.connected = false; $0.lastError = "\(service.target): \(error.message)" }
                    connection = nil
                }
            }
        }
    }
}

/// A connection held behind the service's lock (one round uses it at a time).
private final class PGConnectionBox: @unchecked Sendable {
    let connection: PGConnection

    init(_ connection: PGConnection) { self.connection = connection }
}
