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
        /// The largest anonymous part of the resident set (RssAnon, memory the process allocated) and file part
        /// (RssFile: its binary, libraries and mapped files) seen while the operation ran, sampled every 20 ms.
        var peakAnonymousRSS: Int?
        var peakFileRSS: Int?
        var progressNotifications: Int?
        var error: String?
    }

    struct Size: Encodable {
        var notes = 0
        var photos = 0
        var fillSeconds = 0.0
        var fillErrors = 0
        var indexingSeconds = 0.0
        var indexingProgressNotifications = 0
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
            case notes, photos, fillSeconds, fillErrors, indexingSeconds, indexingProgressNotifications, databaseBytes,
                idleRSS, searchMicroseconds, searchHits, serverInfoMicroseconds, listFirstMicroseconds,
                listMiddleMicroseconds, export, exportInMessage
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
                + "photo note per 1,000 notes. Round trips: medians of \(repeats), with every size's database open in "
                + "a satchel process of its own and the sizes taken in turn, so the machine's load weighs on all alike. "
                + "Export, in-message export and import each in a fresh satchel process, whose peak RSS (VmHWM) is "
                + "read before it is told to exit.")
        report("")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var sizes: [Size] = []
        var middles: [String] = []
        for count in counts {
            let (size, middle) = try measure(binary: binary, notes: count, folder: folder)
            report(
                "- \(formatted(Double(count))) notes: filled in \(formatted(size.fillSeconds)) s"
                    + (size.fillErrors > 0 ? " (\(size.fillErrors) errors)" : "")
                    + ", first search (indexes everything) \(formatted(size.indexingSeconds)) s, database "
                    + megabytes(size.databaseBytes))
            sizes.append(size)
            middles.append(middle)
        }
        try roundTrips(binary: binary, folder: folder, sizes: &sizes, middles: middles)
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

    /// The database of `notes` notes in `folder`.
    static func database(_ notes: Int, in folder: URL) -> String {
        folder.appendingPathComponent("scale-\(notes).sqlite").path
    }

    /// Fills a database of `notes` notes in `folder` and measures what is done once at that size; returns the
    /// figures and the `notes.list` request for the page at the middle.
    static func measure(binary: URL, notes: Int, folder: URL) throws -> (Size, String) {
        let database = database(notes, in: folder)
        let exportPath = folder.appendingPathComponent("export-\(notes).json").path
        defer { try? FileManager.default.removeItem(atPath: exportPath) }
        var size = Size(notes: notes, photos: notes / 1000)

        let server = try PipeBenchmark.Server(binary: binary, arguments: ["--db", database])
        (size.fillSeconds, size.fillErrors) = fill(server, notes: notes)
        // The first search takes in every note: timed on its own, with the progress it reports.
        let indexing = call(
            server,
            #"{"jsonrpc":"2.0","id":1,"method":"search","params":{"query":"apple","_meta":{"progressToken":1}}}"#)
        size.indexingSeconds = indexing.microseconds / 1e6
        size.indexingProgressNotifications = indexing.notifications
        let middle = #"{"limit":50,"cursor":"\#(cursor(server, after: notes / 2))"}"#
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

        let request = #"{"jsonrpc":"2.0","id":4,"method":"notes.list","params":\#(middle)}"#
        guard size.export.error == nil else {
            size.importFromFile.error = "no export file"
            return (size, request)
        }
        let imported = try operation(
            binary: binary, database: folder.appendingPathComponent("imported-\(notes).sqlite").path,
            #"{"jsonrpc":"2.0","id":7,"method":"import","params":{"path":"\#(exportPath)","mode":"replace","_meta":{"progressToken":"import"}}}"#
        )
        size.importFromFile = imported.operation
        if size.importFromFile.error == nil,
            let count = imported.answer.value?["result"]?["imported"]?["notes"]?.integerValue, count != notes
        {
            size.importFromFile.error = "imported \(count) notes of \(notes)"
        }
        return (size, request)
    }

    /// Medians of `repeats` round trips of `search`, `server.info` and two `notes.list` pages at every size, with a
    /// satchel process per size and the sizes taken in turn, so the machine's load weighs on all alike. Each turn
    /// is a burst of `burst` timed round trips after one untimed: a process woken after a few milliseconds asleep
    /// answers ~100–200 µs later on this machine (a Python echo process too), which would hide what the server
    /// does behind what the machine does. The processes are started afresh for each of `passes` passes: on two
    /// shared cores one process can stay slower than another for a while (where it was placed), and that should
    /// not land on one size.
    static func roundTrips(binary: URL, folder: URL, sizes: inout [Size], middles: [String]) throws {
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"search","params":{"query":"apple"}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"server.info"}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"notes.list","params":{"limit":50}}"#,
        ]
        let (burst, passes) = (5, 4)
        var times = Array(repeating: Array(repeating: [Double](), count: requests.count + 1), count: sizes.count)
        for _ in 0..<passes {
            let servers = try sizes.map {
                try PipeBenchmark.Server(binary: binary, arguments: ["--db", database($0.notes, in: folder)])
            }
            defer { servers.forEach { $0.finish() } }
            for _ in 0..<(repeats / burst / passes) {
                for figure in 0...requests.count {
                    for (index, server) in servers.enumerated() {
                        let line = figure < requests.count ? requests[figure] : middles[index]
                        var answer = call(server, line)
                        for _ in 0..<burst {
                            answer = call(server, line)
                            times[index][figure].append(answer.microseconds)
                        }
                        if figure == 0 {
                            sizes[index].searchHits = answer.value?["result"]?["hits"]?.arrayValue?.count ?? -1
                        }
                    }
                }
            }
        }
        for index in sizes.indices {
            let medians = times[index].map { $0.sorted()[$0.count / 2] }
            sizes[index].searchMicroseconds = medians[0]
            sizes[index].serverInfoMicroseconds = medians[1]
            sizes[index].listFirstMicroseconds = medians[2]
            sizes[index].listMiddleMicroseconds = medians[3]
        }
    }

    /// Sends `line` to a fresh satchel process on `database` (after one `server.info`, whose peak RSS is the idle
    /// one), and reads the process's peak RSS before telling it to exit.
    static func operation(binary: URL, database: String, _ line: String) throws
        -> (operation: Operation, answer: Answer, idleRSS: Int?)
    {
        let server = try PipeBenchmark.Server(binary: binary, arguments: ["--db", database])
        defer { server.finish() }
        _ = call(server, #"{"jsonrpc":"2.0","id":0,"method":"server.info"}"#)
        let pid = server.process.processIdentifier
        let idle = memory("VmHWM", of: pid)
        let sampler = Sampler(pid: pid)
        let answer = call(server, line)
        let (anonymous, file) = sampler.stop()
        var operation = Operation(progressNotifications: answer.notifications)
        if let error = answer.value?["error"] {
            let code = error["code"]?.integerValue ?? 0
            operation.error =
                code == -32002 ? "refused (-32002)" : "error \(code): \(error["message"]?.stringValue ?? "")"
        } else {
            operation.seconds = answer.microseconds / 1e6
            operation.peakRSS = memory("VmHWM", of: pid)
            (operation.peakAnonymousRSS, operation.peakFileRSS) = (anonymous, file)
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

    /// A `/proc/<pid>/status` memory field (VmHWM: the peak resident set, RssAnon: its anonymous part) in bytes;
    /// nil where there is no /proc.
    static func memory(_ field: String, of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return words.count > 1 ? Int(words[1]).map { $0 * 1024 } : nil
        }
        return nil
    }

    /// The largest RssAnon and RssFile of a process, read from a thread every 20 ms until `stop()`.
    final class Sampler: @unchecked Sendable {
        private let lock = NSLock()
        private var running = true
        private var anonymous: Int?
        private var file: Int?
        private let done = DispatchSemaphore(value: 0)

        init(pid: Int32) {
            Thread { [self] in
                while lock.withLock({ running }) {
                    let (a, f) = (memory("RssAnon", of: pid), memory("RssFile", of: pid))
                    lock.withLock {
                        anonymous = max(anonymous ?? 0, a ?? 0)
                        file = max(file ?? 0, f ?? 0)
                    }
                    usleep(20_000)
                }
                done.signal()
            }.start()
        }

        func stop() -> (anonymous: Int?, file: Int?) {
            lock.withLock { running = false }
            done.wait()
            return lock.withLock { (anonymous, file) }
        }
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
