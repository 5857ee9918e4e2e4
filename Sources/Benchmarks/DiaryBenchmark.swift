import Foundation
import Protocol

/// `diary.list` over 10,000 posts that carry photos: page time and the bytes a page sends.
enum DiaryBenchmark {
    /// A valid 1×1 PNG; bytes after its end make each copy a distinct image without changing its header.
    static let png: [UInt8] = Array(
        Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!)

    /// `png` made distinct by `number` (its bytes after the PNG's end), in base64: each is stored as an image
    /// of its own, since identical contents are stored once.
    static func distinctPNG(_ number: Int) -> String {
        var bytes = png
        bytes.append(contentsOf: withUnsafeBytes(of: UInt64(number).littleEndian, Array.init))
        return Data(bytes).base64EncodedString()
    }

    static func run(binary: URL) throws {
        report("## `diary.list` with 10,000 posts carrying 1–4 photos each")
        report("")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try PipeBenchmark.Server(binary: binary, arguments: ["--db", folder.appendingPathComponent("d.sqlite").path])
        let total = 10_000
        var lines = ""
        for index in 0..<total {
            let count = 1 + index % 4
            let images = (0..<count).map { slot in #"{"data":"\#(distinctPNG(index * 4 + slot))"}"# }
            let text = "Day \(index): " + String(repeating: "a walk by the river, ", count: 10 + index % 30)
            lines += #"{"jsonrpc":"2.0","id":\#(index),"method":"diary.create","params":{"text":"\#(text)","images":[\#(images.joined(separator: ","))]}}"# + "\n"
        }
        let payload = Data(lines.utf8)
        let handle = server.input.fileHandleForWriting
        let start = DispatchTime.now().uptimeNanoseconds
        Thread { handle.write(payload) }.start()
        server.readLines(total)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        report("- filling: \(total) posts with \(total * 5 / 2) photos in \(formatted(seconds)) s (pipelined `diary.create`)")

        var cursor: String? = nil
        var seen = 0
        while seen < total / 2 {
            let params = cursor.map { #"{"limit":500,"cursor":"\#($0)"}"# } ?? #"{"limit":500}"#
            let answer = try JSONParser.parse(server.roundTrip(#"{"jsonrpc":"2.0","id":1,"method":"diary.list","params":\#(params)}"#).answer)
            seen += answer["result"]?["items"]?.arrayValue?.count ?? 0
            cursor = answer["result"]?["nextCursor"]?.stringValue
        }
        report("")
        report("| page (limit 50) | median | p99 | bytes per page |")
        report("| --- | --- | --- | --- |")
        for (name, params) in [("first", #"{"limit":50}"#), ("middle", #"{"limit":50,"cursor":"\#(cursor ?? "")"}"#)] {
            let line = #"{"jsonrpc":"2.0","id":2,"method":"diary.list","params":\#(params)}"#
            var bytes = 0
            let times = (0..<1000).map { _ -> Double in
                let (answer, micros) = server.roundTrip(line)
                bytes = answer.count + 1
                return micros
            }.sorted()
            report("| \(name) | \(formatted(times[500])) µs | \(formatted(times[990])) µs | \(formatted(Double(bytes))) |")
        }
        server.finish()
        report("")
    }
}
