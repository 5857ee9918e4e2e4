#if os(Linux) || os(macOS)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `satchel` as a child process over pipes (macOS, Linux): its stdout read on a thread of its own, its
/// stderr (the server's log) left to this process's. Starting one ignores SIGPIPE in this process, so that
/// writing to a server that died is an error to handle, not the end of the app.
public final class ProcessTransport: SatchelTransport, @unchecked Sendable {
    public let executable: URL
    public let arguments: [String]
    private let lock = NSLock()
    private var process: Process?
    private var input: FileHandle?

    public init(executable: URL, arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
    }

    public var processIdentifier: Int32? {
        lock.withLock { process?.processIdentifier }
    }

    public func start(receive: @escaping @Sendable (Data) -> Void, ended: @escaping @Sendable (Int32) -> Void) throws {
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let toServer = Pipe()
        let fromServer = Pipe()
        process.standardInput = toServer
        process.standardOutput = fromServer
        do {
            try process.run()
        } catch {
            throw TransportError("cannot start \(executable.path): \(error.localizedDescription)")
        }
        lock.withLock {
            self.process = process
            input = toServer.fileHandleForWriting
        }
        let output = fromServer.fileHandleForReading
        let reader = Thread {
            // read(2) itself: FileHandle's availableData stops the process on an interrupted read.
            let descriptor = output.fileDescriptor
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer { buffer.deallocate() }
            var pending = Data()
            while true {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                while let newline = pending.firstIndex(of: 10) {
                    receive(Data(pending[pending.startIndex..<newline]))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            try? output.close()
            process.waitUntilExit()
            ended(process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus)
        }
        reader.name = "satchel-reader"
        reader.start()
    }

    public func send(_ line: Data) throws {
        guard let input = lock.withLock({ input }) else { throw TransportError("the server is not running") }
        do {
            try input.write(contentsOf: line)
        } catch {
            throw TransportError("the server stopped reading: \(error.localizedDescription)")
        }
    }

    public func close() {
        let input = lock.withLock { () -> FileHandle? in
            defer { self.input = nil }
            return self.input
        }
        try? input?.close()
    }
}
#endif
