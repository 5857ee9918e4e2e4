import Foundation
import Protocol
import Testing

/// Bounded work on hostile input, on the real binary: an answer comes, a `ping` written right behind the
/// request is answered soon after, and the server's peak memory stays under 256 MiB. (Timing bounds are
/// generous for a busy 2-core machine and a debug build; the figures are in BENCHMARKS.md.)
@Suite struct BoundedWorkTests {
    static let memoryBound = 256.0  // MiB
    static let pingBound = 10.0  // seconds, debug build on a busy machine

    /// The server's peak resident memory so far, in MiB.
    static func peakMiB(_ server: SatchelProcess) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(server.pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return .nan }
        return kib / 1024
    }

    /// Sends `line` and a ping in one write; returns the request's answer and the seconds until the ping's.
    static func withPing(_ server: SatchelProcess, _ line: String, id: Int) -> (JSONValue?, Double) {
        let started = Date()
        server.send(Array((line + "\n" + request(id + 1_000_000, "ping") + "\n").utf8))
        var answer: JSONValue? = nil
        while let message = server.readMessage(timeout: 60) {
            if message["id"] == .integer(Int64(id)) { answer = message }
            if message["id"] == .integer(Int64(id + 1_000_000)) { break }
        }
        return (answer, Date().timeIntervalSince(started))
    }

    @Test func searchingRepetitiveTextIsBoundedInTimeAndMemory() throws {
        let server = try SatchelProcess(["--db", NotesEndToEndTests.temporaryDatabase()])
        #expect(server.call(request(1, "notes.create", ["content": .string(String(repeating: "w", count: 1_000_000))]))?["result"] != nil)
        #expect(server.call(request(2, "notes.create", ["content": .string(String(repeating: "ab", count: 50_000))]))?["result"] != nil)
        #expect(server.call(request(3, "notes.create", ["content": .string(String(repeating: "-", count: 20_000))]))?["result"] != nil)
        let queries = [
            String(repeating: "w", count: 10), String(repeating: "w", count: 64),
            (0..<32).map { String(repeating: "w", count: 10 + $0) }.joined(separator: " "),
            String(repeating: "ab", count: 32), String(repeating: "-", count: 20), String(repeating: "-", count: 19) + "x",
        ]
        for (index, query) in queries.enumerated() {
            let (answer, ping) = Self.withPing(server, request(10 + index, "search", ["query": .string(query)]), id: 10 + index)
            #expect(answer?["result"]?["hits"] != nil, "\(query.prefix(20)): \(String(describing: answer))")
            #expect(ping < Self.pingBound, "\(query.prefix(20)): the ping waited \(ping) s")
        }
        // Past the bounds: answered at once with the reason.
        let (tooLong, _) = Self.withPing(server, request(50, "search", ["query": .string(String(repeating: "w", count: 5_000))]), id: 50)
        #expect(tooLong?["error"]?["code"] == -32602)
        let (marks, _) = Self.withPing(server, request(51, "search", ["query": .string("a" + String(repeating: "\u{301}", count: 200_000))]), id: 51)
        #expect(marks?["error"]?["code"] == -32602)
        #expect(Self.peakMiB(server) < Self.memoryBound, "peak \(Self.peakMiB(server)) MiB")
    }
}

/// A subscriber behind another process's bulk change gets one `resync`, not a notification per change, and
/// goes on answering and notifying as before.
@Suite struct SubscriberBacklogTests {
    @Test func aBulkImportElsewhereIsOneResyncAndDelaysNoAnswer() throws {
        let path = NotesEndToEndTests.temporaryDatabase()
        let writer = try SatchelProcess(["--db", path])
        let subscriber = try SatchelProcess(["--db", path])
        let subscribed = try #require(subscriber.call(request(1, "changes.subscribe"))?["result"]?["cursor"])
        // 2,000 notes in two batches of the most a batch holds: far more changes than a subscription is sent
        // one by one.
        let batch = (0..<2_000).map { request($0 + 10, "notes.create", ["title": .string("bulk \($0)")]) }
        writer.send(Array(("[" + batch[..<1_000].joined(separator: ",") + "]\n[" + batch[1_000...].joined(separator: ",") + "]\n").utf8))
        #expect(writer.readMessage(timeout: 60)?.arrayValue?.count == 1_000)
        #expect(writer.readMessage(timeout: 60)?.arrayValue?.count == 1_000)
        // The subscriber's next lines: one resync (from the cursor it had to the newest change), and a ping's
        // answer right behind it; no `changed` for the bulk.
        var lines: [JSONValue] = []
        let deadline = Date().addingTimeInterval(20)
        while !lines.contains(where: { $0["method"] == "resync" }), Date() < deadline {
            if let message = subscriber.readMessage(timeout: 1) { lines.append(message) }
        }
        // (The two batches may be two commits, seen apart: then two resyncs, the second from the first's cursor.)
        while let message = subscriber.readMessage(timeout: 0.5) { lines.append(message) }
        let started = Date()
        let pong = subscriber.call(request(2, "ping"))
        #expect(pong?["result"] == [:])
        #expect(Date().timeIntervalSince(started) < BoundedWorkTests.pingBound)
        #expect(lines.filter { $0["method"] == "changed" }.isEmpty, "\(lines.count) lines")
        let resyncs = lines.filter { $0["method"] == "resync" }
        try #require(!resyncs.isEmpty)
        #expect(resyncs.first?["params"]?["since"] == subscribed)
        for (earlier, later) in zip(resyncs, resyncs.dropFirst()) {
            #expect(later["params"]?["since"] == earlier["params"]?["cursor"])
        }
        let cursor = try #require(resyncs.last?["params"]?["cursor"])
        // Walking the skipped changes from `since` reaches `cursor` with the bulk's 2,000 creates.
        var walked = 0
        var next: JSONValue = subscribed
        for round in 0..<40 {
            let page = try #require(subscriber.call(request(100 + round, "changes.since", ["cursor": next, "limit": 1000]))?["result"])
            walked += page["events"]?.arrayValue?.count ?? 0
            next = try #require(page["nextCursor"])
            if page["hasMore"] == false { break }
        }
        #expect(walked == 2_000)
        #expect(resyncs.last?["params"]?["seq"] != nil)
        #expect(next == cursor)
        // A single change afterwards is a `changed` again.
        #expect(writer.call(request(5_000, "notes.create", ["title": "one more"]))?["result"] != nil)
        var after: JSONValue? = nil
        while after == nil, let message = subscriber.readMessage(timeout: 5) {
            if message["method"] == "changed" { after = message }
        }
        #expect(after?["params"]?["entity"]?["title"] == "one more")
        // And it ends at once when its input closes.
        subscriber.closeInput()
        #expect(subscriber.waitForExit(timeout: 10) == 0)
    }
}

/// The database file under a running server: removed, replaced, write-protected; and what a clean exit
/// leaves in it.
@Suite struct StorageUnderfootTests {
    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "satchel-underfoot-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func titles(_ path: String) throws -> [String] {
        let server = try SatchelProcess(["--db", path])
        let items = server.call(request(1, "notes.list", ["limit": 500]))?["result"]?["items"]?.arrayValue ?? []
        return items.compactMap { $0["title"]?.stringValue }
    }

    @Test func aDatabaseRemovedUnderfootRefusesTheNextWriteInWords() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/db.sqlite"
        let server = try SatchelProcess(["--db", path])
        #expect(server.call(request(1, "notes.create", ["title": "before"]))?["result"] != nil)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        for id in 2...6 {
            let answer = server.call(request(id, "notes.create", ["title": .string("after \(id)")]))
            #expect(answer?["error"]?["data"]?["reason"] == "databaseMoved", "\(String(describing: answer))")
        }
        #expect(server.call(request(7, "ping"))?["result"] == [:], "still serving")
        server.closeInput()
        #expect(server.waitForExit() == 0)
        #expect(server.standardError().contains("removed, moved or replaced"))
        #expect(try Self.titles(path) == [], "nothing was acknowledged that is not stored")
    }

    @Test func aDatabaseReplacedUnderfootKeepsTheReplacementWhole() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/db.sqlite"
        let server = try SatchelProcess(["--db", path])
        for id in 1...10 { #expect(server.call(request(id, "notes.create", ["title": .string("old \(id)")]))?["result"] != nil) }
        // Another database, made and closed elsewhere, is put in its place; the old log stays beside it.
        let other = folder + "/other.sqlite"
        let maker = try SatchelProcess(["--db", other])
        for id in 1...3 { #expect(maker.call(request(id, "notes.create", ["title": .string("new \(id)")]))?["result"] != nil) }
        maker.closeInput()
        #expect(maker.waitForExit() == 0)
        #expect(rename(other, path) == 0)
        let answer = server.call(request(20, "notes.create", ["title": "lost"]))
        #expect(answer?["error"]?["data"]?["reason"] == "databaseMoved")
        server.closeInput()
        #expect(server.waitForExit() == 0)
        #expect(Set(try Self.titles(path)) == ["new 1", "new 2", "new 3"], "the replacement's notes, and only them")
        let check = try SatchelProcess(["--db", path])
        #expect(check.call(request(1, "server.info"))?["result"]?["counts"]?["notes"] == 3)
    }

    @Test func aCleanExitLeavesEverythingInTheDatabaseFileAlone() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/db.sqlite"
        let server = try SatchelProcess(["--db", path])
        for id in 1...10 { #expect(server.call(request(id, "notes.create", ["title": .string("note \(id)")]))?["result"] != nil) }
        server.closeInput()
        #expect(server.waitForExit() == 0)
        // A backup of the .sqlite file alone.
        let backup = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: backup) }
        try FileManager.default.copyItem(atPath: path, toPath: backup + "/db.sqlite")
        #expect(try Self.titles(backup + "/db.sqlite").count == 10)
    }

    @Test func aWriteProtectedDatabaseServesEveryRead() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/db.sqlite"
        // Root writes any file: then the server runs as `nobody`, for whom a mode of 0444 is read-only.
        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] : []
        chmod(folder, 0o777)
        let writer = try SatchelProcess(["--db", path], launcher: launcher)
        #expect(writer.call(request(1, "notes.create", ["title": "harbour walk"]))?["result"] != nil)
        #expect(writer.call(request(2, "search", ["query": "harbour"]))?["result"]?["hits"]?.arrayValue?.count == 1)
        #expect(writer.call(request(3, "notes.create", ["title": "the pier"]))?["result"] != nil)
        writer.closeInput()
        #expect(writer.waitForExit() == 0)
        #expect(chmod(path, 0o444) == 0)
        let server = try SatchelProcess(["--db", path], launcher: launcher)
        // A write and the reads behind it, in one chunk: the write is refused, the reads are answered.
        server.send(
            Array(
                [
                    request(1, "notes.create", ["title": "x"]), request(2, "notes.list"),
                    request(3, "search", ["query": "harbour"]),
                ].map { $0 + "\n" }.joined().utf8))
        let answers = (0..<3).compactMap { _ in server.readMessage() }
        #expect(answers.first?["error"]?["data"]?["reason"] == "readOnly")
        #expect(answers.dropFirst().first?["result"]?["items"]?.arrayValue?.count == 2)
        #expect(answers.last?["result"]?["hits"]?.arrayValue?.count == 1)
    }
}

/// A search that must first index a large burst of writes holds back no answer after it: it indexes in
/// steps, the requests behind it are answered between them, and it is answered when done.
@Suite struct SteppedSearchTests {
    @Test func aPingBehindASearchOverALargeBurstIsAnsweredFirst() throws {
        let server = try SatchelProcess(["--db", NotesEndToEndTests.temporaryDatabase()])
        let count = 3 * 4_096
        for start in stride(from: 0, to: count, by: 1_000) {
            let batch = (start..<start + 1_000).map { request($0 + 10, "notes.create", ["title": .string("burst \($0)")]) }
            server.send(Array(("[" + batch.joined(separator: ",") + "]\n").utf8))
            #expect(server.readMessage(timeout: 60)?.arrayValue?.count == 1_000)
        }
        // The search (with progress asked for) and a ping right behind it, in one write.
        let search = request(1, "search", ["query": "burst 1234", "_meta": ["progressToken": "p"]])
        server.send(Array((search + "\n" + request(2, "ping") + "\n").utf8))
        var order: [JSONValue] = []
        var progress: [JSONValue] = []
        while order.count < 2, let message = server.readMessage(timeout: 60) {
            if message["method"] == "notifications/progress" {
                progress.append(message)
            } else {
                order.append(message)
            }
        }
        #expect(order.first?["id"] == 2, "the ping is answered while the search indexes")
        #expect(order.last?["id"] == 1)
        let titles = order.last?["result"]?["hits"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
        #expect(titles.first == "burst 1234", "\(titles)")
        #expect(progress.count >= 2)
        #expect(progress.last?["params"]?["progress"] == progress.last?["params"]?["total"])
        let totals = Set(progress.compactMap { $0["params"]?["total"] })
        #expect(totals.count == 1, "one total throughout: \(totals)")
        let steps = progress.compactMap { $0["params"]?["progress"]?.integerValue }
        #expect(steps == steps.sorted(), "reports count up")
    }
}
