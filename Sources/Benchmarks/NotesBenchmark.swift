import Foundation
import Protocol

/// `notes.create`, `notes.get` and `notes.list` over the pipe against a real database file.
enum NotesBenchmark {
    static func createLine(_ id: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"notes.create","params":{"title":"note \#(id)","content":"\#(String(repeating: "x", count: 80))"}}"#
    }

    static func getLine(_ id: Int, _ noteID: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"notes.get","params":{"id":"\#(noteID)"}}"#
    }

    static func run(binary: URL) throws {
        report("## Notes over the pipe (real satchel process, a database file in a fresh folder)")
        report("")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // Pipelined creates: 50,000 written at once; answers arrive only after their commit.
        let server = try PipeBenchmark.Server(binary: binary, arguments: ["--db", folder.appendingPathComponent("a.sqlite").path])
        let count = 50_000
        let payload = Data((0..<count).map { createLine($0) + "\n" }.joined().utf8)
        let handle = server.input.fileHandleForWriting
        var start = DispatchTime.now().uptimeNanoseconds
        Thread { handle.write(payload) }.start()
        var ids: [String] = []
        ids.reserveCapacity(count)
        for _ in 0..<count {
            let answer = try JSONParser.parse(server.readLine())
            if let id = answer["result"]?["id"]?.stringValue { ids.append(id) }
        }
        var seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        report("- `notes.create` pipelined: \(formatted(Double(count) / seconds)) requests/s (\(count) creates)")

        // Pipelined gets: over all 50,000 notes (more than the note cache keeps, so mostly read from SQLite),
        // then over 1,000 of them (after their first read, answered from the cache).
        for (spread, what) in [(ids.count, "each note once: read from SQLite"), (1_000, "1,000 notes: cached after their first read")] {
            let getPayload = Data((0..<count).map { getLine($0, ids[$0 % spread]) + "\n" }.joined().utf8)
            start = DispatchTime.now().uptimeNanoseconds
            Thread { handle.write(getPayload) }.start()
            server.readLines(count)
            seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            report("- `notes.get` pipelined, \(what): \(formatted(Double(count) / seconds)) requests/s (\(count) gets)")
        }

        // One at a time.
        var latencies: [Double] = []
        for index in 0..<5000 { latencies.append(server.roundTrip(createLine(count + index)).microseconds) }
        report("- `notes.create` one at a time: " + summary(latencies))
        latencies.removeAll()
        for index in 0..<20_000 { latencies.append(server.roundTrip(getLine(index, ids[index % ids.count])).microseconds) }
        report("- `notes.get` one at a time: " + summary(latencies))
        server.finish()
        report("")

        try listPages(binary: binary, folder: folder)
    }

    /// Page time at 1k and at 100k notes: the first page, and a page half-way down via a cursor.
    static func listPages(binary: URL, folder: URL) throws {
        report("### `notes.list` page time (limit 50, one request at a time, median of 2,000)")
        report("")
        report("| notes | first page | page at the middle |")
        report("| --- | --- | --- |")
        for total in [1_000, 100_000] {
            let server = try PipeBenchmark.Server(
                binary: binary, arguments: ["--db", folder.appendingPathComponent("list-\(total).sqlite").path])
            let handle = server.input.fileHandleForWriting
            let payload = Data((0..<total).map { createLine($0) + "\n" }.joined().utf8)
            Thread { handle.write(payload) }.start()
            server.readLines(total)
            // Walk to the middle with big pages to find its cursor.
            var cursor: String? = nil
            var seen = 0
            while seen < total / 2 {
                var params = #"{"limit":500"#
                if let cursor { params += #","cursor":"\#(cursor)""# }
                params += "}"
                let answer = try JSONParser.parse(server.roundTrip(#"{"jsonrpc":"2.0","id":1,"method":"notes.list","params":\#(params)}"#).answer)
                seen += answer["result"]?["items"]?.arrayValue?.count ?? 0
                cursor = answer["result"]?["nextCursor"]?.stringValue
            }
            let first = #"{"jsonrpc":"2.0","id":2,"method":"notes.list","params":{"limit":50}}"#
            let middle = #"{"jsonrpc":"2.0","id":3,"method":"notes.list","params":{"limit":50,"cursor":"\#(cursor ?? "")"}}"#
            let firstTimes = (0..<2000).map { _ in server.roundTrip(first).microseconds }.sorted()
            let middleTimes = (0..<2000).map { _ in server.roundTrip(middle).microseconds }.sorted()
            report("| \(formatted(Double(total))) | \(formatted(firstTimes[1000])) µs | \(formatted(middleTimes[1000])) µs |")
            server.finish()
        }
        report("")
    }

    static func summary(_ latencies: [Double]) -> String {
        let sorted = latencies.sorted()
        let total = sorted.reduce(0, +)
        return "\(formatted(Double(sorted.count) / (total / 1e6))) round trips/s; median \(formatted(sorted[sorted.count / 2])) µs, "
            + "p99 \(formatted(sorted[sorted.count * 99 / 100])) µs"
    }
}
