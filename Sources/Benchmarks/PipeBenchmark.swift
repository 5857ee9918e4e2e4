import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// End-to-end round trips over the pipe to a real `satchel` process.
enum PipeBenchmark {
    /// A running server with raw pipe ends.
    final class Server {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        private var buffer = [UInt8](repeating: 0, count: 1 << 20)

        init(binary: URL, arguments: [String]) throws {
            process.executableURL = binary
            process.arguments = arguments
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Bytes read but not yet taken as lines, from `pendingStart` on.
        private var pending: [UInt8] = []
        private var pendingStart = 0

        /// Reads until `count` more lines have arrived, and drops them (what follows them is kept).
        func readLines(_ count: Int) {
            var seen = 0
            while seen < count {
                if let newline = pending[pendingStart...].firstIndex(of: 0x0A) {
                    pendingStart = newline + 1
                    seen += 1
                    continue
                }
                refill()
            }
        }

        /// Reads one whole line (without its newline). A long line (an export of hundreds of megabytes) is
        /// searched for its end only in the bytes each read adds, not again from its start.
        func readLine() -> [UInt8] {
            var scanned = pendingStart
            while true {
                if let newline = pending[scanned...].firstIndex(of: 0x0A) {
                    let line = Array(pending[pendingStart..<newline])
                    pendingStart = newline + 1
                    return line
                }
                let searched = pending.count - pendingStart
                refill()
                scanned = pendingStart + searched
            }
        }

        /// Reads what the server has written so far (at least one byte), dropping the lines already taken.
        private func refill() {
            if pendingStart > 0 {
                pending.removeSubrange(..<pendingStart)
                pendingStart = 0
            }
            let descriptor = output.fileHandleForReading.fileDescriptor
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard got > 0 else { fatalError("server closed its output") }
            pending.append(contentsOf: buffer[0..<got])
        }

        /// Writes `text` (one or more lines) to the server.
        func send(_ text: String) {
            input.fileHandleForWriting.write(Data(text.utf8))
        }

        /// Sends one request and returns its answer, timing the round trip in microseconds.
        func roundTrip(_ line: String) -> (answer: [UInt8], microseconds: Double) {
            let start = DispatchTime.now().uptimeNanoseconds
            send(line + "\n")
            let answer = readLine()
            return (answer, Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }

        func finish() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    static func run(binary: URL, pipelined: Int, sequential: Int) throws {
        report("## `ping` over the pipe (real satchel process, --memory)")
        report("")
        let payload = Data((0..<pipelined).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"ping"}"# + "\n" }.joined().utf8)
        var best = 0.0
        for _ in 0..<3 {
            let server = try Server(binary: binary, arguments: ["--memory"])
            let handle = server.input.fileHandleForWriting
            let start = DispatchTime.now().uptimeNanoseconds
            let writer = Thread { handle.write(payload) }
            writer.start()
            server.readLines(pipelined)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = max(best, Double(pipelined) / seconds)
            server.finish()
        }
        report("- pipelined: \(formatted(best)) requests/s (\(pipelined) requests written at once, best of 3)")

        let server = try Server(binary: binary, arguments: ["--memory"])
        let handle = server.input.fileHandleForWriting
        var latencies: [Double] = []
        latencies.reserveCapacity(sequential)
        for id in 0..<sequential {
            let line = Data((#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"# + "\n").utf8)
            let start = DispatchTime.now().uptimeNanoseconds
            handle.write(line)
            server.readLines(1)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        server.finish()
        latencies.sort()
        let total = latencies.reduce(0, +)
        let median = latencies[latencies.count / 2]
        let p99 = latencies[latencies.count * 99 / 100]
        report(
            "- one at a time: \(formatted(Double(sequential) / (total / 1e6))) round trips/s; "
                + "latency median \(formatted(median)) µs, p99 \(formatted(p99)) µs (\(sequential) round trips)")
        report("")
    }
}
