#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A way to reach a Satchel: lines of JSON-RPC in and out. ``InProcessTransport`` runs the server inside
/// this process; ``ProcessTransport`` starts `satchel` as a child process over pipes. ``Satchel`` does the
/// rest (ids, answers, notifications, cancellation) alike over either.
public protocol SatchelTransport: AnyObject, Sendable {
    /// Starts the server. Each line it writes (without its newline) goes to `receive`, in order, on a thread
    /// of the transport's; `ended` is called once, after the last line, with the server's exit status.
    func start(receive: @escaping @Sendable (Data) -> Void, ended: @escaping @Sendable (Int32) -> Void) throws
    /// Writes one message (a line, its newline included).
    func send(_ line: Data) throws
    /// Ends the server's input: it finishes what it was given and ends (then `ended` is called).
    func close()
    /// The server's process id, when it runs as a process of its own.
    var processIdentifier: Int32? { get }
}

/// A failure to start or reach the server.
public struct TransportError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
