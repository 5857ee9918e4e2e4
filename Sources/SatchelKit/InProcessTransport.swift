#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RPCServer
import Synchronization

/// Satchel inside this process, on a thread of its own (``InProcessServer``): messages handed over in
/// memory. For iOS, where an app may start no process, and for any app that prefers it.
public final class InProcessTransport: SatchelTransport {
    public let arguments: [String]
    private let server = Mutex<InProcessServer?>(nil)

    public init(arguments: [String] = []) {
        self.arguments = arguments
    }

    public var processIdentifier: Int32? { nil }

    public func start(receive: @escaping @Sendable (Data) -> Void, ended: @escaping @Sendable (Int32) -> Void) throws {
        // The server writes whole lines, several at a time; each goes to `receive` alone.
        let pending = Mutex(Data())
        let started = try InProcessServer(
            arguments: arguments,
            output: { bytes in
                let lines = pending.withLock { pending -> [Data] in
                    pending.append(contentsOf: bytes)
                    var lines: [Data] = []
                    while let newline = pending.firstIndex(of: 10) {
                        lines.append(Data(pending[pending.startIndex..<newline]))
                        pending.removeSubrange(pending.startIndex...newline)
                    }
                    return lines
                }
                for line in lines { receive(line) }
            },
            finished: ended)
        server.withLock { $0 = started }
    }

    public func send(_ line: Data) throws {
        guard let server = server.withLock({ $0 }) else { throw TransportError("the server is not running") }
        server.send(line)
    }

    public func close() {
        server.withLock { $0 }?.finish()
    }
}
