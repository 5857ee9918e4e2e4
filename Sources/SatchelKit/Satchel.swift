#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Satchel to talk to: in this process (``inProcess(arguments:)``, on a thread of its own: iOS and any
/// app that prefers it) or as a child process (``process(executable:arguments:restartsAfterCrash:)``:
/// macOS, Linux). Both behave the same: every method of the protocol as a typed `async` call
/// (`try await satchel.notes.create(title: "Groceries")`), errors as ``SatchelError``, a cancelled task's
/// call cancelled on the server, progress of long calls as a callback, and the live change feed as an
/// `AsyncSequence` (``changes(domains:)``).
///
/// Calls may be made from any task, many at once; answers are matched to their calls. ``close()`` ends the
/// server (in process, its thread) once it has answered what it was sent.
public final class Satchel: Sendable {
    let connection: Connection

    init(connection: Connection) {
        self.connection = connection
    }

    /// A Satchel over `transport`, started.
    public static func connect(
        restartsAfterCrash: Bool = false, _ makeTransport: @escaping @Sendable () -> any SatchelTransport
    ) async throws(SatchelError) -> Satchel {
        let connection = Connection(restarts: restartsAfterCrash, makeTransport: makeTransport)
        try await connection.start()
        return Satchel(connection: connection)
    }

    /// A Satchel in this process, on a thread of its own, with `arguments` (the command line's flags:
    /// `--db PATH`, `--memory`, `--locale ja`, …; by default its default database).
    public static func inProcess(arguments: [String] = []) async throws(SatchelError) -> Satchel {
        try await connect { InProcessTransport(arguments: arguments) }
    }

    /// `satchel` at `executable`, started with `arguments` (its command-line flags: `--db PATH`,
    /// `--memory`, `--locale ja`, …) as a child process. After a crash it is started again (the calls that
    /// were waiting fail with ``SatchelError/serverExited(status:)``), and the change feed hears, first,
    /// the changes it missed.
    public static func process(
        executable: URL, arguments: [String] = [], restartsAfterCrash: Bool = true
    ) async throws(SatchelError) -> Satchel {
        #if os(Linux) || os(macOS)
        try await connect(restartsAfterCrash: restartsAfterCrash) { ProcessTransport(executable: executable, arguments: arguments) }
        #else
        throw SatchelError.serverExited(status: -1)
        #endif
    }

    /// The server's process id, when it runs as a child process.
    public var processIdentifier: Int32? {
        get async { await connection.processIdentifier }
    }

    /// Calls `method` with `params` and decodes its result as `Result`: what every generated method does,
    /// for a method this version does not know yet.
    public func call<Result: Decodable & Sendable>(
        _ method: String, _ params: Params = Params(), progress: (@Sendable (CallProgress) -> Void)? = nil
    ) async throws(SatchelError) -> Result {
        let line = try await connection.call(method, params, progress: progress).get()
        return try await connection.decode(line)
    }

    /// The live change feed: every change to the database from now on, whoever makes it (this connection,
    /// another process, sync), in `domains` (default: every app), each with the item as it is now. The first
    /// listener subscribes the connection; each gets every change.
    public func changes(domains: [String]? = nil) async throws(SatchelError) -> AsyncStream<Change> {
        try await connection.listen(domains: domains)
    }

    /// Ends the server: it finishes what it was sent and exits; calls still waiting fail with
    /// ``SatchelError/closed``, and the change feed ends.
    public func close() async {
        await connection.close()
    }
}
