import Foundation
import Sync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real PostgreSQL 15 for the tests: `initdb` in a temporary folder, listening only on a Unix socket there,
/// run as the `postgres` user when the tests run as root (PostgreSQL refuses root), stopped and removed when
/// the test process ends. One cluster is shared by the tests, each making its own database and roles; a
/// test that stops PostgreSQL on purpose starts one of its own (``init()``).
final class PostgresCluster: Sendable {
    static let binaries = "/usr/lib/postgresql/15/bin"

    /// The cluster, started on first use.
    static let shared: Result<PostgresCluster, ClusterError> = Result { () throws(ClusterError) in try PostgresCluster() }

    /// The shared cluster, or the reason there is none.
    static func sharedCluster() throws -> PostgresCluster {
        switch shared {
        case .success(let cluster): return cluster
        case .failure(let error): throw error
        }
    }

    struct ClusterError: Error, CustomStringConvertible {
        let description: String
    }

    /// The socket's folder (the `host` of a connection URI), and the data beside it.
    let folder: String

    init() throws(ClusterError) {
        guard FileManager.default.isExecutableFile(atPath: Self.binaries + "/initdb") else {
            throw ClusterError(description: "PostgreSQL 15 is not installed (Debian: apt-get install postgresql)")
        }
        var template = Array("/tmp/satchel-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ClusterError(description: "cannot make a temporary folder") }
        folder = String(cString: made)
        if getuid() == 0 {
            guard let owner = getpwnam("postgres") else {
                throw ClusterError(description: "no postgres user to run PostgreSQL as (root may not)")
            }
            chown(folder, owner.pointee.pw_uid, owner.pointee.pw_gid)
        }
        chmod(folder, 0o700)
        try Self.asPostgres(
            ["initdb", "-D", folder + "/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"])
        try start()
        // A test process that crashes runs no atexit: a watcher outlives it, and stops and removes the
        // cluster once the process is gone.
        try Self.spawnAsPostgres(
            [
                "/bin/sh", "-c",
                "while [ -d /proc/\(getpid()) ]; do sleep 1; done; \(Self.binaries)/pg_ctl -D \(folder)/data -m immediate -w stop; rm -rf \(folder)",
            ], wait: false)
        let first = Self.started.withLock { folders in
            folders.append(folder)
            return folders.count == 1
        }
        if first {
            atexit {
                for folder in PostgresCluster.started.withLock({ $0 }) {
                    _ = try? PostgresCluster.asPostgres(["pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"])
                    try? FileManager.default.removeItem(atPath: folder)
                }
            }
        }
    }

    /// Every cluster started, to stop and remove when the tests end.
    private static let started = LockedFolders()

    /// Starts the server (again, after ``stop()``), and waits until it takes connections.
    func start() throws(ClusterError) {
        try Self.asPostgres([
            "pg_ctl", "-D", folder + "/data", "-l", folder + "/log", "-w", "-o",
            "-k \(folder) -c listen_addresses='' -c fsync=off -c max_connections=200", "start",
        ])
    }

    /// Stops the server at once (`immediate`: as if its machine went away); its data stays.
    func stop() throws(ClusterError) {
        try Self.asPostgres(["pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Runs one of PostgreSQL's programs, as the `postgres` user when this process is root. Spawned by hand,
    /// not with Foundation's `Process`: the server `pg_ctl` starts would inherit the socket `Process`
    /// watches for the end of its child (and every pipe of the tests running beside), so no descriptor
    /// but the standard three goes with it.
    private static func asPostgres(_ arguments: [String]) throws(ClusterError) {
        try spawnAsPostgres([binaries + "/" + arguments[0]] + arguments.dropFirst(), wait: true)
    }

    /// Spawns `arguments` (a program's path first) as the `postgres` user when this process is root, and
    /// waits for it to succeed, unless `wait` is false (it then runs on by itself).
    private static func spawnAsPostgres(_ arguments: [String], wait: Bool) throws(ClusterError) {
        let program = arguments[0]
        let argv = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // glibc's posix_spawn_file_actions_addclosefrom_np, which its Swift module does not export.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { throw ClusterError(description: "glibc lacks posix_spawn_file_actions_addclosefrom_np") }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        var pid: pid_t = 0
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw ClusterError(description: "cannot run \(program): errno \(spawned)") }
        guard wait else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            throw ClusterError(description: "\(program) failed (wait status \(status))")
        }
    }

    /// A connection URI for `role` on `database`.
    func uri(_ role: String, _ database: String) -> String {
        "postgresql:///\(database)?host=\(folder)&user=\(role)"
    }

    /// A fresh database owned by a fresh role (`owner`), and a login role for each of `accounts`: their
    /// names made unique (`alice` becomes `alice_3f2a…`), so tests running at once never meet.
    func database(accounts: [String]) throws -> TestDatabase {
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let admin = try PGConnection(uri("postgres", "postgres"))
        let owner = "owner_\(suffix)"
        let name = "satchel_\(suffix)"
        try admin.execute("CREATE ROLE \(owner) LOGIN")
        try admin.execute("CREATE DATABASE \(name) OWNER \(owner)")
        var roles: [String: String] = [:]
        for account in accounts {
            roles[account] = "\(account)_\(suffix)"
            try admin.execute("CREATE ROLE \(account)_\(suffix) LOGIN")
        }
        return TestDatabase(cluster: self, name: name, owner: owner, roles: roles)
    }
}

/// A database of the test cluster and its roles.
struct TestDatabase {
    let cluster: PostgresCluster
    let name: String
    let owner: String
    /// account -> its unique role name.
    let roles: [String: String]

    var ownerURI: String { cluster.uri(owner, name) }

    func uri(_ account: String) -> String { cluster.uri(roles[account]!, name) }

    func connect(_ account: String) throws -> PGConnection { try PGConnection(uri(account)) }
}

/// The folders of the clusters started, behind a lock.
final class LockedFolders: @unchecked Sendable {
    private var folders: [String] = []
    private let lock = NSLock()

    func withLock<T>(_ body: (inout [String]) -> T) -> T { lock.withLock { body(&folders) } }
}
