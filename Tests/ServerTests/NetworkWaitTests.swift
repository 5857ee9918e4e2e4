import Foundation
import Protocol
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SPEC §1: a request that waits on a network (`messages.loadMore`) never holds back the answers after it;
/// it is answered when the feed answers, cancelled by `notifications/cancelled`, and answered -32007 when
/// the server stops first. Against a real HTTP feed that takes its time (Support/feed_server.py).
@Suite struct NetworkWaitTests {
    typealias FeedServer = MessagesFeedTests.FeedServer

    static func lines(_ server: SatchelProcess, _ lines: String...) {
        server.send(Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    static let cancel7 = #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"left the chat"}}"#

    @Test func laterRequestsAreAnsweredWhileALoadWaitsOnTheFeed() throws {
        let feed = try FeedServer(["10", "--delay", "3"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        let started = Date()
        Self.lines(
            server, request(1, "messages.loadMore", ["limit": 3]), request(2, "notes.create", ["title": "meanwhile"]),
            request(3, "notes.list"))
        let write = server.readMessage(timeout: 2.5)
        let list = server.readMessage(timeout: 2.5)
        #expect(Date().timeIntervalSince(started) < 2.5, "answered before the feed")
        #expect(write?["id"] == 2 && write?["result"]?["title"] == "meanwhile")
        #expect(list?["id"] == 3 && list?["result"]?["items"]?.arrayValue?.count == 1, "others keep their order")
        let load = server.readMessage(timeout: 10)
        #expect(load?["id"] == 1)
        #expect(MessagesFeedTests.texts(load) == ["message 0", "message 1", "message 2"])
        #expect(Date().timeIntervalSince(started) >= 3)
    }

    @Test func aSecondLoadStartsWhereTheFirstEnded() throws {
        let feed = try FeedServer(["10", "--delay", "0.5"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        Self.lines(
            server, request(1, "messages.loadMore", ["limit": 3]), request(2, "messages.loadMore", ["limit": 3]),
            request(3, "ping"))
        #expect(server.readMessage()?["id"] == 3)
        let first = server.readMessage()
        let second = server.readMessage()
        #expect(first?["id"] == 1 && MessagesFeedTests.texts(first) == ["message 0", "message 1", "message 2"])
        #expect(second?["id"] == 2 && MessagesFeedTests.texts(second) == ["message 3", "message 4", "message 5"])
        #expect(feed.requests().map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["0 3", "3 3"])
    }

    @Test func aCancelledLoadIsAnsweredAtOnceAndStoresNothing() throws {
        let feed = try FeedServer(["10", "--delay", "3"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        let started = Date()
        Self.lines(server, request(7, "messages.loadMore", ["limit": 3]), Self.cancel7, request(8, "ping"))
        let cancelled = server.readMessage(timeout: 2.5)
        #expect(cancelled?["id"] == 7)
        #expect(cancelled?["error"]?["code"] == -32800)
        #expect(cancelled?["error"]?["data"]?["reason"] == "cancelled")
        #expect(cancelled?["error"]?["message"] == "The request was cancelled")
        #expect(server.readMessage(timeout: 2.5)?["id"] == 8)
        #expect(Date().timeIntervalSince(started) < 2.5)
        // Cancelling what has no wait (answered, or never sent) changes nothing and answers nothing.
        Self.lines(server, Self.cancel7, request(9, "ping"))
        #expect(server.readMessage()?["id"] == 9)
        // Nothing of the cancelled load was stored: the next one starts at the feed's beginning.
        let next = server.call(request(10, "messages.loadMore", ["limit": 3]))
        #expect(MessagesFeedTests.texts(next) == ["message 0", "message 1", "message 2"])
        #expect(server.call(request(11, "messages.list"))?["result"]?["items"]?.arrayValue?.count == 3)
    }

    @Test func aLoadStillInLineIsCancelledBeforeItAsks() throws {
        let feed = try FeedServer(["10", "--delay", "1"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        Self.lines(
            server, request(6, "messages.loadMore", ["limit": 2]), request(7, "messages.loadMore", ["limit": 2]),
            Self.cancel7)
        #expect(server.readMessage()?["error"]?["code"] == -32800)
        #expect(MessagesFeedTests.texts(server.readMessage()) == ["message 0", "message 1"])
        server.closeInput()
        #expect(server.waitForExit() == 0)
        #expect(feed.requests().count == 1, "the cancelled one never asked")
    }

    @Test func shutdownAnswersAWaitingLoadWithShuttingDown() throws {
        let feed = try FeedServer(["10", "--delay", "3"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        let started = Date()
        Self.lines(server, request(1, "messages.loadMore", ["limit": 3]), request(2, "shutdown"))
        let answers = [server.readMessage(timeout: 2.5), server.readMessage(timeout: 2.5)]
        #expect(Date().timeIntervalSince(started) < 2.5)
        let load = answers.first { $0?["id"] == 1 }
        #expect(load??["error"]?["code"] == -32007)
        #expect(answers.contains { $0?["id"] == 2 && $0?["result"] == .null })
        // A load asked for after shutdown is refused at once, too.
        #expect(server.call(request(3, "messages.loadMore"))?["error"]?["code"] == -32007)
    }

    @Test func aStopSignalAnswersAWaitingLoadBeforeTheProcessEnds() throws {
        let feed = try FeedServer(["10", "--delay", "3"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        #expect(server.call(request(1, "ping"))?["result"] == [:])
        server.send(line: request(2, "messages.loadMore", ["limit": 3]))
        usleep(200_000)
        kill(server.pid, SIGTERM)
        let answer = server.readMessage(timeout: 2.5)
        #expect(answer?["id"] == 2 && answer?["error"]?["code"] == -32007)
        #expect(server.waitForExit(timeout: 2.5) == 0)
    }

    @Test func endOfInputWaitsForTheLoadToBeAnswered() throws {
        let feed = try FeedServer(["10", "--delay", "1"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        server.send(line: request(1, "messages.loadMore", ["limit": 2]))
        server.closeInput()
        let answer = server.readMessage(timeout: 10)
        #expect(MessagesFeedTests.texts(answer) == ["message 0", "message 1"])
        #expect(server.waitForExit() == 0)
    }

    @Test func inABatchTheLoadIsAnsweredWithTheRestAsOneLine() throws {
        let feed = try FeedServer(["10", "--delay", "0.5"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        let batch = "[" + request(1, "messages.loadMore", ["limit": 2]) + "," + request(2, "ping") + "]"
        let answer = server.call(batch)?.arrayValue ?? []
        #expect(answer.map { $0["id"] } == [1, 2])
        #expect(MessagesFeedTests.texts(answer.first) == ["message 0", "message 1"])
    }

    @Test func aKillDuringTheWaitLosesNothingAnswered() throws {
        let feed = try FeedServer(["10", "--delay", "3"])
        let path = NSTemporaryDirectory() + "satchel-netwait-\(UUID().uuidString)/w.sqlite"
        let server = try SatchelProcess(["--db", path, "--messages-feed", feed.url])
        Self.lines(server, request(1, "messages.loadMore", ["limit": 3]), request(2, "notes.create", ["title": "kept"]))
        #expect(server.readMessage(timeout: 2.5)?["id"] == 2)
        kill(server.pid, SIGKILL)
        _ = server.waitForExit()
        let reopened = try SatchelProcess(["--db", path])
        let titles = reopened.call(request(1, "notes.list"))?["result"]?["items"]?.arrayValue?.map { $0["title"] }
        #expect(titles == ["kept"])
        #expect(reopened.call(request(2, "messages.list"))?["result"]?["items"] == [])
    }

    @Test func anMCPToolThatWaitsOnTheFeedHoldsBackNoOtherToolAndFailsAsAToolResult() throws {
        let feed = try FeedServer(["10", "--delay", "2"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url, "--feed-timeout", "5"])
        let started = Date()
        Self.lines(
            server,
            request(1, "tools/call", ["name": "messages_load_more", "arguments": ["limit": 2]]),
            request(2, "tools/call", ["name": "notes_create", "arguments": ["title": "meanwhile"]]))
        let note = server.readMessage(timeout: 1.5)
        #expect(note?["id"] == 2 && note?["result"]?["structuredContent"]?["title"] == "meanwhile")
        #expect(Date().timeIntervalSince(started) < 1.5)
        let load = server.readMessage(timeout: 10)
        #expect(load?["id"] == 1 && load?["result"]?["isError"] == false)
        #expect(load?["result"]?["structuredContent"]?["items"]?.arrayValue?.count == 2)
        // A feed that fails: the tool's result says so (isError), as for any tool.
        let refused = try SatchelProcess(["--memory", "--messages-feed", "http://127.0.0.1:9/feed", "--feed-timeout", "2"])
        let failed = refused.call(request(1, "tools/call", ["name": "messages_load_more", "arguments": [:]]))
        #expect(failed?["result"]?["isError"] == true)
        #expect(failed?["result"]?["structuredContent"]?["error"]?["code"] == -32004)
        // Bad arguments, too, without waiting.
        let bad = refused.call(request(2, "tools/call", ["name": "messages_load_more", "arguments": ["limit": 0]]))
        #expect(bad?["result"]?["isError"] == true)
        #expect(bad?["result"]?["structuredContent"]?["error"]?["code"] == -32602)
    }

    /// A TCP port that takes connections and never says a word (a PostgreSQL that hangs), open until the
    /// value is gone.
    final class SilentPort {
        let descriptor: Int32
        let port: Int

        init() throws {
            let made = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(made, $0, length) }
            }
            listen(made, 16)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(made, $0, &length) }
            }
            descriptor = made
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    @Test func aSyncStuckOnItsServerHoldsBackNoLoadFromTheFeed() throws {
        let silent = try SilentPort()
        let feed = try FeedServer(["10"])
        let server = try SatchelProcess([
            "--memory", "--messages-feed", feed.url,
            "--sync", "postgresql://anna@127.0.0.1:\(silent.port)/shared?connect_timeout=4",
        ])
        let started = Date()
        Self.lines(server, request(1, "sync.now"), request(2, "messages.loadMore", ["limit": 2]))
        let load = server.readMessage(timeout: 3)
        #expect(load?["id"] == 2 && MessagesFeedTests.texts(load) == ["message 0", "message 1"])
        #expect(Date().timeIntervalSince(started) < 3, "the load waited for the sync")
        let sync = server.readMessage(timeout: 10)
        #expect(sync?["id"] == 1 && sync?["error"]?["data"]?["reason"] == "syncUnreachable")
    }
}
