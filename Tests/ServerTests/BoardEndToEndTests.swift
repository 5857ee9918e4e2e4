import Foundation
import Protocol
import Testing

/// SPEC §10 and `--demo` end to end.
@Suite struct BoardEndToEndTests {
    static func temporaryDatabase() -> String {
        NSTemporaryDirectory() + "satchel-board-\(UUID().uuidString)/b.sqlite"
    }

    @Test func concurrentVotesFromTwoProcessesLoseNone() throws {
        let path = Self.temporaryDatabase()
        let first = try SatchelProcess(["--db", path])
        let id = try #require(first.call(request(1, "board.create", ["title": "Mango"]))?["result"]?["id"])
        let second = try SatchelProcess(["--db", path])
        let votes = 1500
        func payload(_ direction: String, voterPrefix: String?) -> [UInt8] {
            var bytes: [UInt8] = []
            for index in 0..<votes {
                var params: JSONObject = ["id": id, "direction": .string(direction)]
                if let voterPrefix { params["voter"] = .string("\(voterPrefix)\(index)") }
                bytes += Array((request(index, "board.vote", .object(params)) + "\n").utf8)
            }
            return bytes
        }
        // Anonymous ups from one process and per-voter downs from the other, at the same time.
        first.sendInBackgroundThenClose(payload("up", voterPrefix: nil))
        second.sendInBackgroundThenClose(payload("down", voterPrefix: "v"))
        let answeredFirst = first.readAllLines().filter { $0.contains("\"result\"") }.count
        let answeredSecond = second.readAllLines().filter { $0.contains("\"result\"") }.count
        #expect(answeredFirst == votes)
        #expect(answeredSecond == votes)
        let check = try SatchelProcess(["--db", path])
        let post = check.call(request(1, "board.get", ["id": id]))?["result"]
        #expect(post?["ups"] == .integer(Int64(votes)))
        #expect(post?["downs"] == .integer(Int64(votes)))
        #expect(post?["votes"] == 0)
    }

    @Test func pagesStayConsistentWhileVotesChange() throws {
        let server = try SatchelProcess()
        var ids: [JSONValue] = []
        for index in 0..<12 {
            ids.append(try #require(server.call(request(index, "board.create", ["title": .string("post \(index)")]))?["result"]?["id"]))
        }
        var seen: [JSONValue] = []
        var page = try #require(server.call(request(100, "board.list", ["limit": 4]))?["result"])
        var round = 0
        while true {
            seen += page["items"]?.arrayValue?.compactMap { $0["id"] } ?? []
            guard let cursor = page["nextCursor"], cursor != .null else { break }
            // Between pages, push the not-yet-seen posts to the top and sink a seen one.
            for id in ids where !seen.contains(id) {
                for _ in 0..<(5 + round) { _ = server.call(request(200, "board.vote", ["id": id, "direction": "up"])) }
            }
            _ = server.call(request(201, "board.vote", ["id": seen[0], "direction": "down"]))
            round += 1
            page = try #require(server.call(request(101, "board.list", ["limit": 4, "cursor": cursor]))?["result"])
        }
        #expect(seen.count == 12)
        #expect(Set(seen.compactMap(\.stringValue)).count == 12)
    }

    @Test func aVoterHasOneVote() throws {
        let server = try SatchelProcess()
        let id = try #require(server.call(request(1, "board.create", ["title": "   "]))?["result"]?["id"])
        let up = server.call(request(2, "board.vote", ["id": id, "direction": "up", "voter": "ann"]))?["result"]
        #expect(up?["myVote"] == "up")
        let again = server.call(request(3, "board.vote", ["id": id, "direction": "up", "voter": "ann"]))?["result"]
        #expect(again?["ups"] == 1)
        #expect(again?["revision"] == up?["revision"])
        let switched = server.call(request(4, "board.vote", ["id": id, "direction": "down", "voter": "ann"]))?["result"]
        #expect(switched?["ups"] == 0)
        #expect(switched?["downs"] == 1)
        #expect(switched?["votes"] == -1)
        let cleared = server.call(request(5, "board.vote", ["id": id, "direction": "clear", "voter": "ann"]))?["result"]
        #expect(cleared?["votes"] == 0)
        #expect(cleared?["myVote"] == .null)
        let anonymous = server.call(request(6, "board.get", ["id": id]))?["result"]
        #expect(anonymous?["myVote"] == nil)
        let empty = server.call(request(7, "board.create", ["title": ""]))
        #expect(empty?["error"]?["data"]?["reason"] == "emptyTitle")
        let badSort = server.call(request(8, "board.list", ["sort": "random"]))
        #expect(badSort?["error"]?["code"] == -32602)
    }

    @Test func demoFillsAnEmptyDatabaseOnceAndSaysSoWhenItDoesNothing() throws {
        let path = Self.temporaryDatabase()
        let first = try SatchelProcess(["--db", path, "--demo"])
        let info = first.call(request(1, "server.info"))?["result"]?["counts"]
        #expect(info?["board"] == 20)
        for app in ["notes", "photos", "reminders", "diary", "messages"] {
            #expect((info?[app]?.integerValue ?? 0) > 0, "\(app) has no sample data")
        }
        let titles = first.call(request(2, "board.list", ["limit": 50]))?["result"]?["items"]?.arrayValue?
            .compactMap { $0["title"]?.stringValue } ?? []
        #expect(titles.contains("Mango") && titles.contains("Apple"))
        first.closeInput()
        #expect(first.waitForExit() == 0)

        let second = try SatchelProcess(["--db", path, "--demo"])
        #expect(second.call(request(1, "server.info"))?["result"]?["counts"] == info)
        second.closeInput()
        #expect(second.waitForExit() == 0)
        #expect(second.standardError().contains("nothing was added"))
    }
}
