import Foundation
import Protocol
import Testing

/// SPEC §11 (change feed, subscriptions) and §12 (several processes on one database), end to end.
@Suite struct LiveDataTests {
    static func temporaryDatabase() -> String {
        NSTemporaryDirectory() + "satchel-live-\(UUID().uuidString)/l.sqlite"
    }

    @Test func aSubscriberInAnotherProcessReceivesEveryEventInOrderWithItsEntity() throws {
        let path = Self.temporaryDatabase()
        let writer = try SatchelProcess(["--db", path])
        let watcher = try SatchelProcess(["--db", path])
        #expect(watcher.call(request(1, "changes.subscribe"))?["result"]?["cursor"]?.stringValue != nil)

        let created = try #require(writer.call(request(1, "notes.create", ["title": "milk"]))?["result"])
        let id = try #require(created["id"])
        _ = writer.call(request(2, "notes.update", ["id": id, "title": "oat milk"]))
        let other = try #require(writer.call(request(3, "notes.create", ["title": "bread"]))?["result"]?["id"])
        _ = writer.call(request(4, "notes.move", ["id": other, "toIndex": 0]))
        _ = writer.call(request(5, "notes.delete", ["id": id]))

        var received: [JSONValue] = []
        let deadline = Date().addingTimeInterval(5)
        while received.count < 5, Date() < deadline, let message = watcher.readMessage(timeout: 2) {
            received.append(message)
        }
        #expect(received.count == 5)
        #expect(received.allSatisfy { $0["method"] == "changed" && $0["id"] == nil })
        let kinds = received.compactMap { $0["params"]?["kind"]?.stringValue }
        #expect(kinds == ["created", "updated", "created", "moved", "deleted"])
        let sequences = received.compactMap { $0["params"]?["seq"]?.integerValue }
        #expect(sequences == sequences.sorted() && Set(sequences).count == 5)
        // The entity is its state now: the note was renamed and then deleted before delivery may have happened,
        // so the first events carry "oat milk" or null; the delete carries null.
        #expect(received[4]["params"]?["entity"] == .null)
        #expect(received[3]["params"]?["entity"]?["title"] == "bread")
        #expect(received.allSatisfy { $0["params"]?["domain"] == "notes" })
    }

    @Test func notificationsFollowTheAnswersOfTheirConnection() throws {
        let server = try SatchelProcess()
        _ = server.call(request(1, "changes.subscribe", ["domains": ["board"]]))
        server.send(line: request(2, "notes.create", ["title": "not watched"]))
        server.send(line: request(3, "board.create", ["title": "Kiwi"]))
        let first = server.readMessage()
        let second = server.readMessage()
        let third = server.readMessage()
        #expect(first?["id"] == 2)
        #expect(second?["id"] == 3 || second?["method"] == "changed")
        let notification = [second, third].compactMap { $0 }.first { $0["method"] == "changed" }
        #expect(notification?["params"]?["domain"] == "board")
        #expect(notification?["params"]?["entity"]?["title"] == "Kiwi")
        #expect(server.call(request(4, "changes.unsubscribe"))?["result"] == ["unsubscribed": true])
        _ = server.call(request(5, "board.create", ["title": "Lime"]))
        #expect(server.readLine(timeout: 0.5) == nil)
    }

    @Test func changesSinceWalksTheLogWithoutGapsOrRepeats() throws {
        let server = try SatchelProcess()
        let start = try #require(server.call(request(1, "changes.since"))?["result"])
        #expect(start["events"] == [])
        #expect(start["hasMore"] == false)
        for index in 0..<25 { _ = server.call(request(10 + index, "notes.create", ["title": .string("n\(index)")])) }
        var cursor = try #require(start["nextCursor"])
        var sequences: [Int64] = []
        var more = true
        while more {
            let page = try #require(server.call(request(50, "changes.since", ["cursor": cursor, "limit": 7]))?["result"])
            sequences += page["events"]?.arrayValue?.compactMap { $0["seq"]?.integerValue } ?? []
            more = page["hasMore"] == true
            cursor = try #require(page["nextCursor"])
        }
        #expect(sequences == Array(1...25))
        let empty = server.call(request(51, "changes.since", ["cursor": cursor]))?["result"]
        #expect(empty?["events"] == [])
        #expect(empty?["nextCursor"] == cursor)
        for bad in ["nope", "", "MX5ub3Rl"] {
            let answer = server.call(request(52, "changes.since", ["cursor": .string(bad)]))
            #expect(answer?["error"]?["code"] == -32602, "\(bad)")
        }
    }

    @Test func fourWritersAtOnceLoseNothingAndNeverSeeALockedDatabase() throws {
        let path = Self.temporaryDatabase()
        let perWriter = 2500
        let writers = try (0..<4).map { _ in try SatchelProcess(["--db", path]) }
        for (number, writer) in writers.enumerated() {
            var payload: [UInt8] = []
            for index in 0..<perWriter {
                let line = index % 2 == 0
                    ? request(index, "notes.create", ["title": .string("w\(number)-\(index)")])
                    : request(index, "messages.send", ["text": .string("w\(number)-\(index)")])
                payload += Array((line + "\n").utf8)
            }
            writer.sendInBackgroundThenClose(payload)
        }
        var failures: [String] = []
        for writer in writers {
            let lines = writer.readAllLines(timeout: 60)
            #expect(lines.count == perWriter)
            failures += lines.filter { $0.contains("\"error\"") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        let check = try SatchelProcess(["--db", path])
        let counts = check.call(request(1, "server.info"))?["result"]?["counts"]
        #expect(counts?["notes"] == .integer(Int64(2 * perWriter)))
        #expect(counts?["messages"] == .integer(Int64(2 * perWriter)))
        let log = check.call(request(2, "changes.since", ["cursor": .string(Self.cursorZero), "limit": 1000]))?["result"]
        #expect(log?["hasMore"] == true)
    }

    /// The cursor before the first event.
    static let cursorZero = "MH5jaGFuZ2Vz"
}
