import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Satchel inside an app's own process (iOS may start no child process): the same server as the command
/// line's — its flags, its loop, its methods — on a thread of its own, its requests handed over in memory
/// and its protocol messages handed back to a closure. Only a doorbell (a self-pipe, as the loop's other
/// wake-ups) tells the loop that something came; no process, no stdio.
public final class InProcessServer: Sendable {
    /// What was handed over and not read yet, and whether input has ended.
    private let inbox = Mutex<(queued: [UInt8], ended: Bool)>(([], false))
    private let doorbell: (reader: Int32, writer: Int32)

    /// Why the server could not start (a flag it does not know, a database it cannot open), in the command
    /// line's words.
    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts a server with `arguments` (the command line's flags: `--memory`, `--db PATH`, `--locale ja`,
    /// …). What it writes goes to `output` (whole lines, on the server's thread); `finished` is called once
    /// it has stopped, with the exit status the command line would have had.
    public init(
        arguments: [String], output: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
        finished: @escaping @Sendable (Int32) -> Void
    ) throws(StartFailure) {
        let configuration: ServerConfiguration
        do {
            guard case .serve(let serving) = try CommandLineOptions.parse(arguments, environment: CommandLineOptions.environment())
            else { throw StartFailure(description: "\(arguments.joined(separator: " ")) does not serve") }
            configuration = serving
        } catch let failure as StartFailure {
            throw failure
        } catch let usage as UsageError {
            throw StartFailure(description: usage.message)
        } catch {
            throw StartFailure(description: "\(error)")
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw StartFailure(description: "cannot make a doorbell: errno \(errno)") }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        doorbell = (ends[0], ends[1])
        let server: ServerAssembly
        do {
            server = try ServerAssembly(configuration)
        } catch {
            close(ends[0])
            close(ends[1])
            throw StartFailure(description: error.message)
        }
        let input = ServerInput(descriptor: doorbell.reader) { [self] buffer in take(into: buffer) }
        let run = Box { [self] in
            let loop = ServerLoop(
                dispatcher: server.dispatcher, store: server.store, input: input, output: Sink(write: output),
                signals: -1, logger: server.logger, sync: server.driver)
            let code = loop.run()
            server.store.close()
            // However it stopped (end of input, `exit`): nothing is taken any more, and the doorbell is
            // closed under the lock that rings it, so no later send rings a descriptor reused elsewhere.
            self.inbox.withLock { inbox in
                inbox.ended = true
                close(self.doorbell.reader)
                close(self.doorbell.writer)
            }
            finished(code)
        }
        // A thread of its own with the stack a main thread has (8 MiB), as the command line runs it.
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 8 << 20)
        defer { pthread_attr_destroy(&attributes) }
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let context = Unmanaged.passRetained(run).toOpaque()
        let made = pthread_create(&thread, &attributes, { context in
            let run = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            run.body()
            return nil
        }, context)
        guard made == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw StartFailure(description: "cannot start the server's thread: error \(made)")
        }
        #if canImport(Darwin)
        pthread_detach(thread!)
        #else
        pthread_detach(thread)
        #endif
    }

    /// The body of the server's thread: what it serves is handed over to that thread, and used only there.
    private final class Box: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Hands the server `bytes` (whole messages, each ending in a newline, as on stdin).
    public func send(_ bytes: some Collection<UInt8>) {
        inbox.withLock { inbox in
            guard !inbox.ended else { return }
            inbox.queued.append(contentsOf: bytes)
            ring()
        }
    }

    /// Ends the server's input: it answers what it was given, then stops.
    public func finish() {
        inbox.withLock { inbox in
            guard !inbox.ended else { return }
            inbox.ended = true
            ring()
        }
    }

    private func ring() {
        var byte: UInt8 = 1
        _ = write(doorbell.writer, &byte, 1)
    }

    /// The loop's read: what was handed over so far (the doorbell quieted), 0 once input has ended, or -1
    /// with `EAGAIN` when nothing is there yet.
    private func take(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(doorbell.reader, &scratch, scratch.count) > 0 {}
        return inbox.withLock { inbox in
            if inbox.queued.isEmpty {
                if inbox.ended { return 0 }
                errno = EAGAIN
                return -1
            }
            let count = min(buffer.count, inbox.queued.count)
            inbox.queued.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
            inbox.queued.removeFirst(count)
            return count
        }
    }

    private struct Sink: ProtocolSink {
        let write: @Sendable (UnsafeRawBufferPointer) -> Void

        func write(_ raw: UnsafeRawBufferPointer) -> Bool {
            write(raw)
            return true
        }
    }
}
