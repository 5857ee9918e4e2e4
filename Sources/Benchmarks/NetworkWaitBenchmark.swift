import Foundation

/// `notes.create` sent right after a `messages.loadMore` whose feed answers after 3 s: how long the create
/// waits for its answer, and the load for its own, round by round against other builds (`--compare`).
/// The feed is the test suite's (`Tests/ServerTests/Support/feed_server.py`, run with python3).
enum NetworkWaitBenchmark {
    static func run(binary: URL, compare: [URL], rounds: Int = 5) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/ServerTests/Support/feed_server.py")
        let feed = Process()
        let port = Pipe()
        feed.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        feed.arguments = ["python3", script.path, "1000", "--delay", "3"]
        feed.standardInput = Pipe()
        feed.standardOutput = port
        feed.standardError = FileHandle.nullDevice
        try feed.run()
        defer { feed.terminate() }
        var line: [UInt8] = []
        while let byte = try port.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        let url = "http://127.0.0.1:\(String(decoding: line, as: UTF8.self))/feed"

        report("## A write sent right behind a `messages.loadMore` whose feed answers after 3 s")
        report("")
        report("| build | `notes.create` answered after (median of \(rounds)) | the load answered after |")
        report("| --- | --- | --- |")
        for (name, build) in [("this build", binary)] + compare.map({ ("--compare \($0.path)", $0) }) {
            let server = try PipeBenchmark.Server(binary: build, arguments: ["--memory", "--messages-feed", url])
            var create: [Double] = []
            var load: [Double] = []
            for round in 0..<rounds {
                let start = DispatchTime.now().uptimeNanoseconds
                server.send(
                    #"{"jsonrpc":"2.0","id":1,"method":"messages.loadMore","params":{"limit":5}}"# + "\n"
                        + #"{"jsonrpc":"2.0","id":2,"method":"notes.create","params":{"title":"n\#(round)"}}"# + "\n")
                for _ in 0..<2 {
                    let answer = String(decoding: server.readLine(), as: UTF8.self)
                    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                    if answer.hasPrefix(#"{"jsonrpc":"2.0","id":2,"result""#) { create.append(elapsed) }
                    else if answer.hasPrefix(#"{"jsonrpc":"2.0","id":1,"result""#) { load.append(elapsed) }
                    else { fatalError("unexpected answer: \(answer.prefix(200))") }
                }
            }
            server.finish()
            let median = { (times: [Double]) in formatted(times.sorted()[times.count / 2]) + " ms" }
            report("| \(name) | \(median(create)) | \(median(load)) |")
        }
        report("")
    }
}
