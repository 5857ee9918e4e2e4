import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A device's link to the shared PostgreSQL database (`--sync URL`), kept on a thread of its own: it
/// connects, checks the schema (it never makes it: `satchel sync-setup` does), registers the device, and
/// tries again, less and less often, while PostgreSQL cannot be reached. The request path never waits on
/// it: ``status`` is what it last found.
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
    public let device: String
    private let conninfo: String
    private let state = Mutex(Status())
    private let stopping = Atomic<Bool>(false)

    /// `nil` (and the reason) when libpq cannot read `url`.
    public init(url: String, device: String) throws(PGError) {
        target = try PGTarget.parse(url).get()
        conninfo = url
        self.device = device
    }

    public var status: Status { state.withLock { $0 } }

    /// Starts the thread that keeps the link.
    public func start() {
        let thread = Thread(self)
        thread.start()
    }

    /// Asks the thread to end (at its next wake-up).
    public func stop() {
        stopping.store(true, ordering: .relaxed)
    }

    /// One attempt: connect, check the schema, register this device. Answers the connection when usable.
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
            try connection.execute("INSERT INTO satchel.devices(id) VALUES ($1) ON CONFLICT (id) DO NOTHING", [device])
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

    /// The thread: connects, and while it cannot, waits 1, 2, 4 … up to 30 seconds between tries.
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
                    }
                    continue
                }
                sleep(2)
                // Still there? A lost connection is said at once and made again.
                do {
                    try open.execute("SELECT 1")
                } catch {
                    service.update { $0.connected = false; $0.lastError = "\(service.target): \(error.message)" }
                    connection = nil
                }
            }
        }
    }
}
