import Foundation
import Protocol

/// Change notifications across processes: latency from a commit in process A to the line from process B,
/// and the CPU an idle subscribed server uses.
enum LiveDataBenchmark {
    static func run(binary: URL, rounds: Int = 300) throws {
        report("## Live data: notification latency between two processes, idle CPU")
        report("")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("live.sqlite").path
        let writer = try PipeBenchmark.Server(binary: binary, arguments: ["--db", path])
        let watcher = try PipeBenchmark.Server(binary: binary, arguments: ["--db", path])
        _ = watcher.roundTrip(#"{"jsonrpc":"2.0","id":1,"method":"changes.subscribe","params":{"domains":["notes"]}}"#)

        var latencies: [Double] = []
        for index in 0..<rounds {
            // The write is committed when its answer arrives; from then on, time until B says so.
            _ = writer.roundTrip(#"{"jsonrpc":"2.0","id":\#(index),"method":"notes.create","params":{"title":"n\#(index)"}}"#)
            let committed = DispatchTime.now().uptimeNanoseconds
            _ = watcher.readLine()
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - committed) / 1e6)
            // Spread the writes out so each one meets the watcher idle, as a person's edits would.
            usleep(UInt32.random(in: 5_000...60_000))
        }
        latencies.sort()
        report(
            "- commit in A → `changed` line from B: median \(formatted(latencies[rounds / 2])) ms, "
                + "p99 \(formatted(latencies[rounds * 99 / 100])) ms, max \(formatted(latencies[rounds - 1])) ms "
                + "(\(rounds) notes; B polls the change log every 50 ms while idle)")

        let before = cpuSeconds(of: watcher.process.processIdentifier)
        Thread.sleep(forTimeInterval: 10)
        let after = cpuSeconds(of: watcher.process.processIdentifier)
        report("- idle subscribed server over 10 s: \(formatted((after - before) * 1000)) ms of CPU (\(formatted((after - before) / 10 * 100)) % of one core)")
        writer.finish()
        watcher.finish()
        report("")
    }

    /// User plus system CPU time of a process, from /proc.
    static func cpuSeconds(of pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
