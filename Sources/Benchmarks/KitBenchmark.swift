import Foundation
import SatchelKit

/// SatchelKit's start-up and calls, the server in this process against the same server as a child process,
/// round by round in one run: time from asking for a Satchel to the answer of its first `ping`, the
/// memory it takes (this process's resident growth in process; the child's resident size), and a `ping`
/// round trip once running.
enum KitBenchmark {
    static func run(binary: URL) async throws {
        let rounds = 20
        var startInProcess: [Double] = [], startChild: [Double] = []
        var growth: [Int] = [], childResident: [Int] = []
        for _ in 0..<rounds {
            let before = residentKiB(getpid())
            var started = DispatchTime.now().uptimeNanoseconds
            let inside = try await Satchel.inProcess(arguments: ["--memory"])
            _ = try await inside.ping()
            startInProcess.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            growth.append(residentKiB(getpid()) - before)
            await inside.close()

            started = DispatchTime.now().uptimeNanoseconds
            let child = try await Satchel.process(executable: binary, arguments: ["--memory"], restartsAfterCrash: false)
            _ = try await child.ping()
            startChild.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            if let pid = await child.processIdentifier { childResident.append(residentKiB(pid)) }
            await child.close()
        }
        let calls = 2000
        var perCall: [String: Double] = [:]
        for (name, satchel) in [
            ("in process", try await Satchel.inProcess(arguments: ["--memory"])),
            ("child process", try await Satchel.process(executable: binary, arguments: ["--memory"], restartsAfterCrash: false)),
        ] {
            for _ in 0..<100 { _ = try await satchel.ping() }
            let started = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<calls { _ = try await satchel.ping() }
            perCall[name] = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e3 / Double(calls)
            await satchel.close()
        }
        func median<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }
        report("## SatchelKit: start-up and calls, in process and as a child process (\(rounds) rounds each, alternating)")
        report("")
        report("| | in process | child process | in process / child |")
        report("| --- | ---: | ---: | ---: |")
        report(String(format: "| start to first `ping` answer, median (ms) | %.2f | %.2f | %.2f |",
                      median(startInProcess), median(startChild), median(startInProcess) / median(startChild)))
        report("| memory, median (KiB) | \(median(growth)) (this process's growth) | \(median(childResident)) (the child's resident size) | |")
        report("| memory, first start (KiB) | \(growth[0]) | \(childResident.first ?? 0) | |")
        report(String(format: "| `ping` round trip, %d in a row (µs) | %.1f | %.1f | %.2f |",
                      calls, perCall["in process"]!, perCall["child process"]!, perCall["in process"]! / perCall["child process"]!))
        report("")
    }

    /// The resident size of process `pid` (VmRSS, KiB).
    static func residentKiB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
