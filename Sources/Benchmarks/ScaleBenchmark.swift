import Foundation
import Protocol

/// How the server's figures grow with its database: 1,000, 10,000 and 100,000 notes (1,000,000 with
/// `--million`), each figure printed with its ratio to the 1,000-note one. Every size is a fresh database
/// filled through the protocol (pipelined `notes.create`, one note in ten mentioning "apple", plus a photo
/// note per 1,000 notes); export, in-message export and import each run in a satchel process of their
/// own, so the peak resident set read before it exits is that operation's.
enum ScaleBenchmark {
    /// What an operation took, or why it did not happen (refused, or not offered by this server).
    struct Operation: Encodable {
        var seconds: Double?
        var bytes: Int?
        var peakRSS: Int?
        var progressNotifications: Int?
        var error: String?
    }

    struct Size: Encodable {
        var notes = 0
        var photos = 0
        var fillSeconds = 0.0
        var fillErrors = 0
        var indexingSeconds = 0.0
        var databaseBytes = 0
        var idleRSS: Int?
        var searchMicroseconds = 0.0
        var searchHits = 0
        var serverInfoMicroseconds = 0.0
        var listFirstMicroseconds = 0.0
        var listMiddleMicroseconds = 0.0
        var export = Operation()
        var importFromFile = Operation()
        var exportInMessage = Operation()

        enum CodingKeys: String, CodingKey {
            case notes, photos, fillSeconds, fillErrors, indexingSeconds, databaseBytes, idleRSS, searchMicroseconds,
                searchHits, serverInfoMicroseconds, listFirstMicroseconds, listMiddleMicroseconds, export,
                exportInMessage
            case importFromFile = "import"
        }
    }

    struct Run: Encodable {
        var cores: Int
        var repeats: Int
        var sizes: [Size]
    }

    /// Round trips per median.
    static let repeats = 100

    static func run(binary: URL, million: Bool, jsonPath: String?) throws {
        let counts = [1_000, 10_000, 100_000] + (million ? [1_000_000] : [])
        report("## Scale: \(counts.map { formatted(Double($0)) }.joined(separator: ", ")) notes")
        report("")
        report(
            "Each size: a fresh database filled by pipelined `notes.create` (one in ten mentions \"apple\") plus a "
                + "photo note per 1,000 notes; medians of \(repeats) round trips; export, in-message export and import "
                + "each in a fresh satchel process, whose peak RSS (VmHWM) is read before it is told to exit.")
        report("")
        var sizes: [Size] = []
        for count in counts {
            let size = try measure(binary: binary, notes: count)
            report(
                "- \(formatted(Double(count))) notes: filled in \(formatted(size.fillSeconds)) s"
                    + (size.fillErrors > 0 ? " (\(size.fillErrors) errors)" : "")
                    + ", first search (indexes everything) \(formatted(size.indexingSeconds)) s, database "
                    + megabytes(size.databaseBytes))
            sizes.append(size)
        }
        report("")
        tables(sizes)
        if let jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let run = Run(cores: ProcessInfo.processInfo.activeProcessorCount, repeats: repeats, sizes: sizes)
            try encoder.encode(run).write(to: URL(fileURLWithPath: jsonPath))
            report("The figures as JSON: \(jsonPath)")
            report("")
        }
    }

    static func measure(binary: URL, notes: Int) throws -> Size {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("scale.sqlite").path
        let exportPath = folder.appendingPathComponent("export.json").path
        var size = Size(notes: notes, photos: notes / 1000)

        let server = try PipeBenchmark.Server(binary: binary, arguments: ["--db", database])
        (size.fillSeconds, size.fillErrors) = fill(server, notes: notes)
        let search = #"{"jsonrpc":"2.0","id":1,"method":"search","params":{"query":"apple"}}"#
        size.indexingSeconds = call(server, search).microseconds / 1e6
        let searched = median(server, search)
        size.searchMicroseconds = searched.microseconds
        size.searchHits = searched.answer.value?["result"]?["hits"]?.arrayValue?.count ?? -1
        size.serverInfoMicroseconds = median(server, #"{"jsonrpc":"2.0","id":2,"method":"server.info"}"#).microseconds
        size.listFirstMicroseconds =
            median(server, #"{"jsonrpc":"2.0","id":3,"method":"notes.list","params":{"limit":50}}"#).microseconds
        let middle = #"{"limit":50,"cursor":"\#(cursor(server, after: notes / 2))"}"#
        size.listMiddleMicroseconds =
            median(server, #"{"jsonrpc":"2.0","id":4,"method":"notes.list","params":\#(middle)}"#).microseconds
        server.finish()
        size.databaseBytes = ["", "-wal"].reduce(0) { $0 + fileSize(database + $1) }

        // Export to a file; the process's RSS after its first `server.info` is the idle baseline.
        let exported = try operation(
            binary: binary, database: database,
            #"{"jsonrpc":"2.0","id":5,"method":"export","params":{"path":"\#(exportPath)","_meta":{"progressToken":"export"}}}"#
        )
        size.export = exported.operation
        size.idleRSS = exported.idleRSS
        if size.export.error == nil {
            size.export.bytes =
                (exported.answer.value?["result"]?["bytes"]?.integerValue).map { Int($0) } ?? fileSize(exportPath)
        }

        let inMessage = try operation(
            binary: binary, database: database, #"{"jsonrpc":"2.0","id":6,"method":"export","params":{}}"#)
        size.exportInMessage = inMessage.operation
        if size.exportInMessage.error == nil { size.exportInMessage.bytes = inMessage.answer.line.count + 1 }

        guard size.export.error == nil else {
            size.importFromFile.error = "no export file"
            return size
        }
        let imported = try operation(
            binary: binary, database: folder.appendingPathComponent("imported.sqlite").path,
            #"{"jsonrpc":"2.0","id":7,"method":"import","params":{"path":"\#(exportPath)","mode":"replace","_meta":{"progressToken":"import"}}}"#
        )
        size.importFromFile = imported.operation
        if size.importFromFile.error == nil,
            let count = imported.answer.value?["result"]?["imported"]?["notes"]?.integerValue, count != notes
        {
            size.importFromFile.error = "imported \(count) notes of \(notes)"
        }
        return size
    }

    /// Sends `line` to a fresh satchel process on `database` (after one `server.info`, whose peak RSS is the idle
    /// one), and reads the process's peak RSS before telling it to exit.
    static func operation(binary: URL, database: String, _ line: String) throws
        -> (operation: Operation, answer: Answer, idleRSS: Int?)
    {
        let server = try PipeBenchmark.Server(binary: binary, arguments: ["--db", database])
        defer { server.finish() }
        _ = call(server, #"{"jsonrpc":"2.0","id":0,"method":"server.info"}"#)
        let idle = memory("VmHWM", of: server.process.processIdentifier)
        let answer = call(server, line)
        var operation = Operation(progressNotifications: answer.notifications)
        if let error = answer.value?["error"] {
            let code = error["code"]?.integerValue ?? 0
            operation.error =
                code == -32002 ? "refused (-32002)" : "error \(code): \(error["message"]?.stringValue ?? "")"
        } else {
            operation.seconds = answer.microseconds / 1e6
            operation.peakRSS = memory("VmHWM", of: server.process.processIdentifier)
        }
        return (operation, answer, idle)
    }

    /// Writes `notes` creates (and a photo note after every 1,000th) from a thread while reading the answers;
    /// returns the seconds until the last answer and how many answers were errors.
    static func fill(_ server: PipeBenchmark.Server, notes: Int) -> (seconds: Double, errors: Int) {
        let handle = server.input.fileHandleForWriting
        let start = DispatchTime.now().uptimeNanoseconds
        Thread {
            var chunk = ""
            for index in 0..<notes {
                let content = SearchBenchmark.text(index + 1, 8) + (index % 10 == 0 ? " apple" : "")
                chunk +=
                    #"{"jsonrpc":"2.0","id":\#(index),"method":"notes.create","params":{"title":"\#(SearchBenchmark.text(index, 3))","content":"\#(content)"}}"#
                    + "\n"
                if index % 1000 == 999 {
                    chunk +=
                        #"{"jsonrpc":"2.0","id":"photo\#(index)","method":"photos.add","params":{"image":{"data":"\#(DiaryBenchmark.distinctPNG(index))"},"caption":"photo \#(index)"}}"#
                        + "\n"
                }
                if chunk.utf8.count >= 1 << 20 || index == notes - 1 {
                    handle.write(Data(chunk.utf8))
                    chunk = ""
                }
            }
        }.start()
        let error = Array(#""error":"#.utf8)
        var errors = 0
        for _ in 0..<(notes + notes / 1000) where server.readLine().firstRange(of: error) != nil {
            errors += 1
        }
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, errors)
    }

    /// The cursor after the first `count` notes of `notes.list`, walked in pages of 500.
    static func cursor(_ server: PipeBenchmark.Server, after count: Int) -> String {
        var cursor: String? = nil
        var seen = 0
        while seen < count {
            let params = cursor.map { #"{"limit":500,"cursor":"\#($0)"}"# } ?? #"{"limit":500}"#
            let answer = call(server, #"{"jsonrpc":"2.0","id":1,"method":"notes.list","params":\#(params)}"#)
            seen += answer.value?["result"]?["items"]?.arrayValue?.count ?? 0
            cursor = answer.value?["result"]?["nextCursor"]?.stringValue
            if cursor == nil { break }
        }
        return cursor ?? ""
    }

    /// One request's answer and the notification lines that came before it.
    struct Answer {
        var line: [UInt8]
        /// The parsed answer; nil for a line over 4 MiB (an in-message export), which no notification is.
        var value: JSONValue?
        var microseconds: Double
        var notifications: Int
    }

    /// Sends `line` and reads up to its answer, counting the notifications (lines with a `method`, or
    /// without an `id`) before it.
    static func call(_ server: PipeBenchmark.Server, _ line: String) -> Answer {
        let start = DispatchTime.now().uptimeNanoseconds
        server.send(line + "\n")
        var notifications = 0
        while true {
            let received = server.readLine()
            let microseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
            guard received.count < 4 << 20 else {
                return Answer(line: received, microseconds: microseconds, notifications: notifications)
            }
            let value = try? JSONParser.parse(received)
            if value?["method"] != nil || value?["id"] == nil {
                notifications += 1
                continue
            }
            return Answer(line: received, value: value, microseconds: microseconds, notifications: notifications)
        }
    }

    /// The median of `repeats` round trips of `line`, and the last answer.
    static func median(_ server: PipeBenchmark.Server, _ line: String) -> (microseconds: Double, answer: Answer) {
        var answer = call(server, line)
        var times = [answer.microseconds]
        for _ in 1..<repeats {
            answer = call(server, line)
            times.append(answer.microseconds)
        }
        return (times.sorted()[repeats / 2], answer)
    }

    /// A `/proc/<pid>/status` memory field (VmHWM: the peak resident set, VmRSS: the current one) in bytes;
    /// nil where there is no /proc.
    static func memory(_ field: String, of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return words.count > 1 ? Int(words[1]).map { $0 * 1024 } : nil
        }
        return nil
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    // MARK: - The report

    /// A figure at one size: a value, or why there is none.
    enum Cell {
        case value(Double)
        case missing(String)
    }

    static func cell(_ operation: Operation, _ value: Double?) -> Cell {
        value.map(Cell.value) ?? .missing(operation.error ?? "not measured")
    }

    static func tables(_ sizes: [Size]) {
        let time = { (microseconds: Double) in duration(microseconds / 1e6) }
        table("`search {query: \"apple\"}` (median)", sizes, time, alsoTo: 10_000) { .value($0.searchMicroseconds) }
        table("`server.info` (median)", sizes, time) { .value($0.serverInfoMicroseconds) }
        table("`notes.list {limit: 50}`, first page (median)", sizes, time) { .value($0.listFirstMicroseconds) }
        table("`notes.list {limit: 50}`, the page at the middle (median)", sizes, time) {
            .value($0.listMiddleMicroseconds)
        }
        table("First search after the fill (indexes every note)", sizes, duration) { .value($0.indexingSeconds) }
        table("`export {path}`: time", sizes, duration) { cell($0.export, $0.export.seconds) }
        table("`export {path}`: peak RSS", sizes, megabytes) { cell($0.export, $0.export.peakRSS.map(Double.init)) }
        table("`export {path}`: file", sizes, megabytes) { cell($0.export, $0.export.bytes.map(Double.init)) }
        table("`import {path, mode: \"replace\"}` into an empty database: time", sizes, duration) {
            cell($0.importFromFile, $0.importFromFile.seconds)
        }
        table("`import {path, mode: \"replace\"}`: peak RSS", sizes, megabytes) {
            cell($0.importFromFile, $0.importFromFile.peakRSS.map(Double.init))
        }
        table("`export {}` (in the answer): time", sizes, duration) {
            cell($0.exportInMessage, $0.exportInMessage.seconds)
        }
        table("`export {}` (in the answer): peak RSS", sizes, megabytes) {
            cell($0.exportInMessage, $0.exportInMessage.peakRSS.map(Double.init))
        }
        table("`export {}` (in the answer): answer", sizes, megabytes) {
            cell($0.exportInMessage, $0.exportInMessage.bytes.map(Double.init))
        }
        table("Idle satchel (after one `server.info`): peak RSS", sizes, megabytes) {
            $0.idleRSS.map { .value(Double($0)) } ?? .missing("no /proc")
        }
        report(
            "Progress notifications received: "
                + sizes.map { size in
                    "\(formatted(Double(size.notes))) notes: export \(size.export.progressNotifications ?? 0), "
                        + "import \(size.importFromFile.progressNotifications ?? 0)"
                }.joined(separator: "; "))
        report("")
        bounds(sizes)
    }

    /// One figure's table: its value at each size and the ratio to its value at 1,000 notes (and to `alsoTo`).
    static func table(
        _ title: String, _ sizes: [Size], _ show: (Double) -> String, alsoTo second: Int? = nil,
        _ figure: (Size) -> Cell
    ) {
        func valueAt(_ notes: Int) -> Double? {
            guard let size = sizes.first(where: { $0.notes == notes }), case .value(let value) = figure(size) else {
                return nil
            }
            return value
        }
        let references = [1_000] + (second.map { [$0] } ?? [])
        report("### \(title)")
        report("")
        report("| notes | value | " + references.map { "ratio to \($0 / 1000)k" }.joined(separator: " | ") + " |")
        report("| --- | --- | " + references.map { _ in "---" }.joined(separator: " | ") + " |")
        for size in sizes {
            var cells = ["\(formatted(Double(size.notes)))"]
            switch figure(size) {
            case .value(let value):
                cells.append(show(value))
                cells += references.map { valueAt($0).map { ratio(value / $0) } ?? "–" }
            case .missing(let why):
                cells.append(why)
                cells += references.map { _ in "–" }
            }
            report("| " + cells.joined(separator: " | ") + " |")
        }
        report("")
    }

    /// The bounds the server is held to, at the largest size measured.
    static func bounds(_ sizes: [Size]) {
        guard let first = sizes.first, let last = sizes.last else { return }
        let at = formatted(Double(last.notes))
        report("Bounds (at \(at) notes; they are set for 1,000,000):")
        report("")
        if let tenK = sizes.first(where: { $0.notes == 10_000 }) {
            let searchRatio = last.searchMicroseconds / tenK.searchMicroseconds
            report(
                "- `search` at \(at) / at 10,000: \(ratio(searchRatio)) (bound 3x: \(searchRatio <= 3 ? "met" : "not met"))"
            )
        }
        let infoRatio = last.serverInfoMicroseconds / first.serverInfoMicroseconds
        report(
            "- `server.info` at \(at) / at 1,000: \(ratio(infoRatio)) (bound 2x: \(infoRatio <= 2 ? "met" : "not met"))"
        )
        for (name, small, large) in [
            ("`export {path}`", first.export, last.export),
            ("`import {path}`", first.importFromFile, last.importFromFile),
        ] {
            guard let smallPeak = small.peakRSS, let largePeak = large.peakRSS else {
                report("- \(name) peak RSS: \(large.error ?? small.error ?? "not measured")")
                continue
            }
            report(
                "- \(name) peak RSS at \(at) / at 1,000: \(ratio(Double(largePeak) / Double(smallPeak))) "
                    + "(\(megabytes(largePeak)) against \(megabytes(smallPeak)); constant memory is ~1x)")
        }
        report("")
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2fx", value) }

    static func duration(_ seconds: Double) -> String {
        if seconds >= 1 { return "\(formatted(seconds)) s" }
        if seconds >= 1e-3 { return "\(formatted(seconds * 1e3)) ms" }
        return "\(formatted(seconds * 1e6)) µs"
    }

    static func megabytes(_ bytes: Double) -> String { "\(formatted(bytes / 1_048_576)) MiB" }
    static func megabytes(_ bytes: Int) -> String { megabytes(Double(bytes)) }
}
