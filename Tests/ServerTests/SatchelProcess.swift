import Foundation
import Protocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `satchel` binary running as a child process, driven over pipes as a front-end would.
final class SatchelProcess {
    let process = Process()
    let stdinPipe = Pipe()
    let stdoutPipe = Pipe()
    let stderrPipe = Pipe()
    private var buffered: [UInt8] = []
    private var stderrCollected: [UInt8] = []

    /// Where the binary is: `$SATCHEL_BINARY`, else beside the test bundle in the build folder.
    static var binaryURL: URL {
        if let explicit = ProcessInfo.processInfo.environment["SATCHEL_BINARY"] {
            return URL(fileURLWithPath: explicit)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<4 {
            directory = directory.deletingLastPathComponent()
            let candidate = directory.appendingPathComponent("satchel")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return Bundle.main.bundleURL.appendingPathComponent("satchel")
    }

    /// `launcher`: a command that runs the binary (given as its last argument), such as `setpriv` to run it
    /// as another user.
    init(_ arguments: [String] = ["--memory"], environment: [String: String] = [:], launcher: [String] = []) throws {
        // A server that dies (as some tests make it) must not take the test runner with it.
        signal(SIGPIPE, SIG_IGN)
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = Array(launcher.dropFirst()) + [Self.binaryURL.path] + arguments
        } else {
            process.executableURL = Self.binaryURL
            process.arguments = arguments
        }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        process.environment = merged
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var pid: Int32 { process.processIdentifier }

    /// Sends raw bytes to the server's stdin.
    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(stdinPipe.fileHandleForWriting.fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Sends one line (a newline is added).
    func send(line: String) {
        send(Array((line + "\n").utf8))
    }

    /// Writes `bytes` from another thread, then closes stdin, so a large pipelined payload cannot
    /// deadlock against the answers the test is reading.
    func sendInBackgroundThenClose(_ bytes: [UInt8]) {
        let handle = stdinPipe.fileHandleForWriting
        Thread {
            let descriptor = handle.fileDescriptor
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        break  // the server has gone
                    }
                    offset += written
                }
            }
            try? handle.close()
        }.start()
    }

    /// Closes the server's stdin (end of input).
    func closeInput() {
        try? stdinPipe.fileHandleForWriting.close()
    }

    /// The next line of stdout, or `nil` at end of output or after `timeout` seconds.
    func readLine(timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            guard let chunk = readChunk(stdoutPipe.fileHandleForReading.fileDescriptor, timeout: remaining) else {
                return nil
            }
            buffered.append(contentsOf: chunk)
        }
    }

    /// The next stdout line, parsed.
    func readMessage(timeout: Double = 10) -> JSONValue? {
        guard let line = readLine(timeout: timeout) else { return nil }
        return try? JSONParser.parse(line)
    }

    /// Sends a request and returns the next message.
    func call(_ line: String) -> JSONValue? {
        send(line: line)
        return readMessage()
    }

    /// Every remaining stdout line, until end of output.
    func readAllLines(timeout: Double = 30) -> [String] {
        var lines: [String] = []
        while let line = readLine(timeout: timeout) { lines.append(line) }
        return lines
    }

    /// Waits for the process to end and returns its exit status (`nil` on timeout).
    ///
    /// Asks the kernel, not `Process.isRunning`: Foundation learns of an exit when a socket it hands the
    /// child is closed, and a sibling server spawned at the same moment by a parallel test can inherit
    /// that socket and keep it open for as long as it runs. `WNOWAIT` leaves the child for Foundation
    /// to reap.
    func waitForExit(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            #if canImport(Glibc)
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
                info._sifields._sigchld.si_pid == pid
            {
                return info._sifields._sigchld.si_status
            }
            #endif
            if !process.isRunning { return process.terminationStatus }
            if Date() > deadline { return nil }
            usleep(10_000)
        }
    }

    /// Everything the server wrote to stderr so far (reads until the pipe is idle or closed).
    func standardError(timeout: Double = 0.5) -> String {
        while let chunk = readChunk(stderrPipe.fileHandleForReading.fileDescriptor, timeout: timeout) {
            stderrCollected.append(contentsOf: chunk)
        }
        return String(decoding: stderrCollected, as: UTF8.self)
    }

    private func readChunk(_ descriptor: Int32, timeout: Double) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(1, timeout * 1000)))
        guard ready > 0 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(descriptor, &chunk, chunk.count)
        guard count > 0 else { return nil }
        return Array(chunk[0..<count])
    }
}

/// A request line for tests.
func request(_ id: Int, _ method: String, _ params: JSONValue? = nil) -> String {
    var object: JSONObject = ["jsonrpc": "2.0", "id": .integer(Int64(id)), "method": .string(method)]
    if let params { object["params"] = params }
    return JSONValue.object(object).description
}
