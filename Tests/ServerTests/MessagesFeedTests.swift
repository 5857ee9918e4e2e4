import Foundation
import Protocol
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SPEC §9 end to end, against a real HTTP feed on 127.0.0.1 (Support/feed_server.py).
@Suite struct MessagesFeedTests {
    /// The test feed server, running until the test ends.
    final class FeedServer {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        let log = Pipe()
        let port: Int

        init(_ arguments: [String]) throws {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Support/feed_server.py").path
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script] + arguments
            process.standardInput = input
            process.standardOutput = output
            process.standardError = log
            try process.run()
            var line: [UInt8] = []
            let handle = output.fileHandleForReading
            while true {
                let byte = handle.readData(ofLength: 1)
                guard let first = byte.first, first != 0x0A else { break }
                line.append(first)
            }
            port = Int(String(decoding: line, as: UTF8.self)) ?? 0
        }

        var url: String { "http://127.0.0.1:\(port)/feed" }

        /// The requests served so far, as "offset limit status" lines.
        func requests() -> [String] {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return text.split(separator: "\n").map(String.init)
        }

        deinit {
            if process.isRunning { process.terminate() }
        }
    }

    static func loadMore(_ server: SatchelProcess, _ id: Int, limit: Int = 20) -> JSONValue? {
        server.call(request(id, "messages.loadMore", ["limit": .integer(Int64(limit))]))
    }

    static func texts(_ answer: JSONValue?) -> [String] {
        answer?["result"]?["items"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
    }

    @Test(arguments: ["messages", "result"])
    func pagingToTheEndSignalsEndOfHistory(shape: String) throws {
        let feed = try FeedServer(["45", "--shape", shape])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        var loaded: [String] = []
        var id = 1
        var answer = Self.loadMore(server, id)
        while answer?["result"]?["endOfHistory"] == false {
            loaded += Self.texts(answer)
            id += 1
            answer = Self.loadMore(server, id)
        }
        #expect(Self.texts(answer).isEmpty)
        #expect(answer?["result"]?["endOfHistory"] == true)
        #expect(loaded == (0..<45).map { "message \($0)" })
        // The local list is newest first: the feed's first message is at index 0.
        let list = server.call(request(99, "messages.list", ["limit": 500]))?["result"]?["items"]?.arrayValue ?? []
        #expect(list.compactMap { $0["text"]?.stringValue } == loaded)
        #expect(list.allSatisfy { $0["origin"] == "remote" })
        #expect(feed.requests().prefix(3) == ["0 20 200", "20 20 200", "40 20 200"])
    }

    @Test func authorsKeepOnlyAbsoluteHTTPAvatars() throws {
        let feed = try FeedServer(["4"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        let items = Self.loadMore(server, 1)?["result"]?["items"]?.arrayValue ?? []
        #expect(items.count == 4)
        #expect(items[0]["author"] == ["name": "user 0", "avatarUrl": nil])  // ftp:// is not accepted
        #expect(items[1]["author"] == ["name": "user 1", "avatarUrl": "https://example.org/a.png"])
    }

    @Test func aServerThatFailsOnceStoresNothingAndTheRetryStoresThePageOnce() throws {
        let feed = try FeedServer(["10", "--fail-first", "1"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        let failed = Self.loadMore(server, 1, limit: 5)
        #expect(failed?["error"]?["code"] == -32004)
        #expect(failed?["error"]?["data"] == ["reason": "httpStatus", "status": 503])
        #expect(server.call(request(2, "messages.list"))?["result"]?["items"] == [])
        let retried = Self.loadMore(server, 3, limit: 5)
        #expect(Self.texts(retried) == (0..<5).map { "message \($0)" })
        let list = server.call(request(4, "messages.list"))?["result"]?["items"]?.arrayValue ?? []
        #expect(list.count == 5)
        #expect(feed.requests() == ["0 5 503", "0 5 200"])
    }

    @Test func aSlowServerPastTheTimeoutIsUpstreamUnavailable() throws {
        let feed = try FeedServer(["10", "--delay", "3"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url, "--feed-timeout", "0.5"])
        let started = Date()
        let answer = Self.loadMore(server, 1)
        #expect(answer?["error"]?["code"] == -32004)
        #expect(answer?["error"]?["data"]?["reason"] == "timeout")
        #expect(Date().timeIntervalSince(started) < 2.5)
        #expect(server.call(request(2, "messages.list"))?["result"]?["items"] == [])
    }

    @Test func connectionRefusedAndMalformedAnswersStoreNothing() throws {
        // A port nobody listens on: bind one, note it, close it.
        let refused = try SatchelProcess(["--memory", "--messages-feed", "http://127.0.0.1:9/feed", "--feed-timeout", "2"])
        let answer = Self.loadMore(refused, 1)
        #expect(answer?["error"]?["code"] == -32004)
        #expect(answer?["error"]?["data"]?["reason"] == "connectionFailed")
        let feed = try FeedServer(["10", "--malformed"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        let malformed = Self.loadMore(server, 1)
        #expect(malformed?["error"]?["data"]?["reason"] == "malformedResponse")
        #expect(server.call(request(2, "server.info"))?["result"]?["counts"]?["messages"] == 0)
    }

    @Test func sendAndDeleteInterleavedWithLoadsNeverStoreTwice() throws {
        let feed = try FeedServer(["12"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url, "--user-name", "Kim"])
        #expect(Self.texts(Self.loadMore(server, 1, limit: 4)) == ["message 0", "message 1", "message 2", "message 3"])
        let sent = try #require(server.call(request(2, "messages.send", ["text": "hello"]))?["result"])
        #expect(sent["author"] == ["name": "Kim", "avatarUrl": nil])
        #expect(sent["origin"] == "local")
        let first = try #require(server.call(request(3, "messages.list", ["limit": 500]))?["result"]?["items"]?.arrayValue)
        #expect(first.first?["text"] == "hello")
        // Delete a loaded one: later loads do not bring it back, nor store anything twice.
        let loadedID = try #require(first[1]["id"])
        #expect(server.call(request(4, "messages.delete", ["id": loadedID]))?["result"]?["deleted"] == true)
        #expect(Self.texts(Self.loadMore(server, 5, limit: 4)) == ["message 4", "message 5", "message 6", "message 7"])
        _ = server.call(request(6, "messages.send", ["text": "again"]))
        #expect(Self.texts(Self.loadMore(server, 7, limit: 10)) == ["message 8", "message 9", "message 10", "message 11"])
        let list = try #require(server.call(request(8, "messages.list", ["limit": 500]))?["result"]?["items"]?.arrayValue)
        let texts = list.compactMap { $0["text"]?.stringValue }
        #expect(texts == ["again", "hello", "message 1", "message 2", "message 3"] + (4...11).map { "message \($0)" })
        #expect(Set(texts).count == texts.count)
    }

    @Test func aRestartKeepsEverythingAndContinuesFromWhereItWas() throws {
        let feed = try FeedServer(["9"])
        let path = NSTemporaryDirectory() + "satchel-messages-\(UUID().uuidString)/m.sqlite"
        do {
            let server = try SatchelProcess(["--db", path, "--messages-feed", feed.url])
            _ = Self.loadMore(server, 1, limit: 5)
            _ = server.call(request(2, "messages.send", ["text": "mine"]))
            server.closeInput()
            #expect(server.waitForExit() == 0)
        }
        let server = try SatchelProcess(["--db", path, "--messages-feed", feed.url])
        #expect(Self.texts(Self.loadMore(server, 1, limit: 5)) == (5..<9).map { "message \($0)" })
        let list = server.call(request(2, "messages.list"))?["result"]?["items"]?.arrayValue ?? []
        #expect(list.compactMap { $0["text"]?.stringValue } == ["mine"] + (0..<9).map { "message \($0)" })
    }

    @Test func aFileFeedIsServedInPages() throws {
        let path = NSTemporaryDirectory() + "satchel-feed-\(UUID().uuidString).json"
        try Data(#"{"result": ["a", "b", "c"]}"#.utf8).write(to: URL(fileURLWithPath: path))
        let server = try SatchelProcess(["--memory", "--messages-feed", "file://" + path])
        #expect(Self.texts(Self.loadMore(server, 1, limit: 2)) == ["a", "b"])
        #expect(Self.texts(Self.loadMore(server, 2, limit: 2)) == ["c"])
        #expect(Self.loadMore(server, 3, limit: 2)?["result"]?["endOfHistory"] == true)
    }

    @Test func withoutAFeedTheSampleConversationIsShown() throws {
        let server = try SatchelProcess()
        let answer = Self.loadMore(server, 1, limit: 5)
        #expect(Self.texts(answer).count == 5)
        #expect(answer?["result"]?["endOfHistory"] == false)
    }

    @Test func sendRules() throws {
        let server = try SatchelProcess()
        #expect(server.call(request(1, "messages.send", ["text": "  "]))?["error"]?["data"]?["reason"] == "emptyMessage")
        let long = server.call(request(2, "messages.send", ["text": .string(String(repeating: "ж", count: 10_001))]))
        #expect(long?["error"]?["data"] == ["reason": "messageTooLong", "field": "text", "limit": 10000])
        #expect(server.call(request(3, "messages.get", ["id": "msg_x"]))?["error"]?["code"] == -32001)
    }

    @Test func badFeedFlagsExitTwo() throws {
        for arguments in [["--messages-feed", "ftp://x/y"], ["--feed-timeout", "0"], ["--user-avatar-url", "/me.png"]] {
            let server = try SatchelProcess(["--memory"] + arguments)
            #expect(server.waitForExit() == 2, "\(arguments)")
        }
    }

    @Test func aSlowFeedHoldsNoLockAndNoEarlierAnswer() throws {
        let feed = try FeedServer(["10", "--delay", "3"])
        let path = NSTemporaryDirectory() + "satchel-slowfeed-\(UUID().uuidString)/m.sqlite"
        let loader = try SatchelProcess(["--db", path, "--messages-feed", feed.url, "--feed-timeout", "10"])
        let other = try SatchelProcess(["--db", path])
        #expect(other.call(request(1, "ping"))?["result"] == [:])
        // A write and a slow load arrive together.
        let started = Date()
        loader.send(Array((request(1, "notes.create", ["title": "before the load"]) + "\n"
            + request(2, "messages.loadMore", ["limit": 3]) + "\n").utf8))
        // The write is answered without waiting for the feed...
        let first = loader.readMessage(timeout: 2.5)
        #expect(first?["id"] == 1)
        #expect(Date().timeIntervalSince(started) < 2.5)
        // ...and another process can write meanwhile.
        let written = other.call(request(2, "board.create", ["title": "meanwhile"]))
        #expect(written?["result"]?["title"] == "meanwhile")
        #expect(Date().timeIntervalSince(started) < 2.9)
        #expect(Self.texts(loader.readMessage(timeout: 10)).count == 3)
    }

    @Test func loadMoreWithAProgressTokenSaysWhenItAsksAndWhenItIsDone() throws {
        let feed = try FeedServer(["10"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        server.send(line: request(1, "messages.loadMore", ["limit": 5, "_meta": ["progressToken": 42]]))
        let (notes, answer) = ExchangeFileTests.progress(of: server, until: 1)
        #expect(answer?["result"]?["items"]?.arrayValue?.count == 5)
        #expect(notes.map { $0["progress"] } == [0, 5])
        #expect(notes.allSatisfy { $0["progressToken"] == 42 && $0["total"] == 5 })
    }
}

/// A feed is bounded: its answer in bytes, its whole answer in time, and what is taken of it in messages.
@Suite struct BoundedFeedTests {
    typealias Feed = MessagesFeedTests.FeedServer

    @Test func anEndlessBodyIsCutAtEightMebibytes() throws {
        let feed = try Feed(["10", "--endless", "fast"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url, "--feed-timeout", "60"])
        let answer = MessagesFeedTests.loadMore(server, 1)
        #expect(answer?["error"]?["code"] == -32004)
        #expect(answer?["error"]?["data"]?["reason"] == "responseTooLarge")
        #expect(BoundedWorkTests.peakMiB(server) < BoundedWorkTests.memoryBound)
        #expect(server.call(request(2, "messages.list"))?["result"]?["items"] == [])
    }

    @Test func theTimeoutIsADeadlineForTheWholeBody() throws {
        let feed = try Feed(["10", "--endless", "slow"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url, "--feed-timeout", "1"])
        let started = Date()
        let answer = MessagesFeedTests.loadMore(server, 1)
        #expect(answer?["error"]?["data"]?["reason"] == "timeout")
        #expect(Date().timeIntervalSince(started) < 5, "a trickling body ends at the deadline")
    }

    @Test func aFeedAnsweringFarMoreThanAskedGivesOnlyTheLimit() throws {
        // 3,000 messages of 1,000 characters (about 3 MB) to `limit: 20`.
        let feed = try Feed(["3000", "--ignore-limit", "--text-size", "1000"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        let first = MessagesFeedTests.loadMore(server, 1)
        #expect(first?["result"]?["items"]?.arrayValue?.count == 20)
        let second = MessagesFeedTests.loadMore(server, 2)
        #expect(second?["result"]?["items"]?.arrayValue?.first?["text"]?.stringValue?.hasPrefix("message 20") == true)
        #expect(server.call(request(3, "messages.list", ["limit": 100]))?["result"]?["items"]?.arrayValue?.count == 40)
        #expect(feed.requests() == ["0 20 200", "20 20 200"])
    }
}
