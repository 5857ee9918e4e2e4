import Foundation
import Protocol

/// `search` latency over 100,000 mixed documents (notes, messages, board posts, reminders, diary posts).
enum SearchBenchmark {
    static let words = [
        "river", "station", "garden", "morning", "letter", "window", "harbour", "mountain", "coffee", "journey",
        "Москва", "письмо", "утро", "вокзал", "река", "京都", "紅葉", "東京タワー", "旅行", "写真",
    ]

    static func text(_ index: Int, _ count: Int) -> String {
        (0..<count).map { words[(index &* 7 &+ $0 &* 13) % words.count] + String(index % 97) }.joined(separator: " ")
    }

    static func run(binary: URL, total: Int = 100_000) throws {
        report("## `search` over \(formatted(Double(total))) mixed documents")
        report("")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try PipeBenchmark.Server(binary: binary, arguments: ["--db", folder.appendingPathComponent("s.sqlite").path])
        var lines = ""
        for index in 0..<total {
            let line: String
            switch index % 5 {
            case 0: line = #"{"jsonrpc":"2.0","id":\#(index),"method":"notes.create","params":{"title":"\#(text(index, 3))","content":"\#(text(index + 1, 12))"}}"#
            case 1: line = #"{"jsonrpc":"2.0","id":\#(index),"method":"messages.send","params":{"text":"\#(text(index, 8))"}}"#
            case 2: line = #"{"jsonrpc":"2.0","id":\#(index),"method":"board.create","params":{"title":"\#(text(index, 4))"}}"#
            case 3: line = #"{"jsonrpc":"2.0","id":\#(index),"method":"diary.create","params":{"text":"\#(text(index, 20))"}}"#
            default: line = #"{"jsonrpc":"2.0","id":\#(index),"method":"reminders.add","params":{"title":"\#(text(index, 3))"}}"#
            }
            lines += line + "\n"
        }
        let payload = Data(lines.utf8)
        let handle = server.input.fileHandleForWriting
        let start = DispatchTime.now().uptimeNanoseconds
        Thread { handle.write(payload) }.start()
        server.readLines(total)
        let filled = DispatchTime.now().uptimeNanoseconds
        // Sent at once (well within the 100 ms the server waits before indexing on its own), the first
        // search takes the whole backlog in itself.
        let (_, firstSearch) = server.roundTrip(#"{"jsonrpc":"2.0","id":0,"method":"search","params":{"query":"harb"}}"#)
        report("- filling: \(formatted(Double(filled - start) / 1e9)) s (pipelined creates; writes do not touch the index)")
        report(
            "- the first search, right behind them: \(formatted(firstSearch / 1e6)) s — it first indexes all "
                + "\(formatted(Double(total))) documents (\(formatted(firstSearch / Double(total))) µs each)")
        report("")
        report("| query | hits (limit 20) | median | p99 |")
        report("| --- | --- | --- | --- |")
        for query in ["harb", "coffee42", "morning station", "Моск", "письмо1", "紅葉", "東京タワ", "zzzz"] {
            let line = #"{"jsonrpc":"2.0","id":1,"method":"search","params":{"query":"\#(query)"}}"#
            var hits = 0
            let times = (0..<200).map { _ -> Double in
                let (answer, micros) = server.roundTrip(line)
                hits = (try? JSONParser.parse(answer))?["result"]?["hits"]?.arrayValue?.count ?? -1
                return micros
            }.sorted()
            report("| `\(query)` | \(hits) | \(formatted(times[100] / 1000)) ms | \(formatted(times[198] / 1000)) ms |")
        }
        server.finish()
        report("")
    }
}
