#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The link: a thread of its own that keeps a connection to PostgreSQL, checks the schema and the role,
/// registers the device and listens for other devices' pushes, waking the server loop for a round.
extension SyncService {
    /// One attempt: connect, check the schema, register this device, listen. Answers the connection.
    func connect() -> PGConnection? {
        do {
            let connection = try PGConnection(conninfo)
            let found = try SyncSchema.installedVersion(connection)
            let schema: SchemaState =
                found == SyncSchema.version ? .ok : found == 0 ? .missing : found < SyncSchema.version ? .older : .newer
            guard schema == .ok else {
                let problem: Problem = schema == .newer ? .schemaNewer : schema == .missing ? .schemaMissing : .schemaOlder
                let advice =
                    schema == .newer
                    ? "the sync schema in \(target) is at version \(found), newer than this satchel's: use a newer satchel"
                    : schema == .missing
                        ? "\(target) has no sync schema yet: run `satchel sync-setup URL` as the database's owner"
                        : "the sync schema in \(target) is at version \(found), older than this satchel's \(SyncSchema.version): run `satchel sync-setup URL` as the database's owner"
                update { $0.connected = true; $0.schema = schema; $0.lastError = advice; $0.problem = problem }
                return nil
            }
            guard connection.user == account else {
                // (A service file or a libpq default named another role than the one this device votes as.)
                update {
                    $0.connected = true
                    $0.problem = .wrongRole
                    $0.lastError = "\(target) logged in as \(connection.user), not \(account): name the role in the URL"
                }
                return nil
            }
            try checkRole(connection)
            try connection.execute("SELECT satchel.register($1::uuid)", [device])
            try refreshSealing(connection)
            try connection.execute("LISTEN satchel_changes")
            update {
                $0.connected = true
                $0.schema = .ok
                if $0.problem != .wrongPassphrase && $0.problem != .encryptionUnavailable {
                    $0.lastError = nil
                    $0.problem = nil
                }
                $0.lastSuccess = Self.now()
            }
            return connection
        } catch {
            let problem = Self.problem(error)
            update {
                $0.connected = problem != nil && error.kind != .connection
                $0.lastError = "\(target): \(error.message)"
                $0.problem = problem
            }
            return nil
        }
    }

    /// The link's thread: connects (trying each second while it cannot), then waits on the connection's
    /// socket for notifications, waking the loop for each batch of them.
    final class Thread: @unchecked Sendable {
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
            var connection: PGConnection? = nil
            while !service.stopping.load(ordering: .relaxed) {
                guard let open = connection else {
                    connection = service.connect()
                    if connection == nil {
                        // Tried again each second while PostgreSQL is away (a refused connection costs it
                        // next to nothing), so what waits goes out within moments of its return; a
                        // problem that waiting will not fix (a wrong password, say) is tried less often.
                        sleep(service.status.problem == nil ? 1 : 10)
                    } else {
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
