import Foundation
import Protocol
import Testing

@testable import Domain

/// SPEC §11 search over the pipe: writes pay nothing for the index, an idle server brings it up to date on
/// its own, and a search right after a write finds it.
@Suite struct SearchEndToEndTests {
    @Test func anIdleServerBringsTheIndexUpToDateWithoutBeingAsked() throws {
        let path = NotesEndToEndTests.temporaryDatabase()
        let server = try SatchelProcess(["--db", path])
        let count = 1_200  // more than one idle step takes in
        for batch in stride(from: 0, to: count, by: 100) {
            let lines = (batch..<batch + 100).map { request($0, "notes.create", ["title": .string("idle \($0)")]) + "\n" }
            server.send(Array(lines.joined().utf8))
            for _ in 0..<100 { #expect(server.readMessage()?["result"]?["id"] != nil) }
        }
        let observer = try DataStore(path: path)
        let deadline = Date().addingTimeInterval(10)
        while try observer.search.isBehind(), Date() < deadline { usleep(20_000) }
        #expect(try observer.search.isBehind() == false)
        #expect(try observer.database.scalarInteger("SELECT count(*) FROM search_documents") == Int64(count))
        #expect(server.call(request(9_999, "ping"))?["result"] == [:], "still serving")
    }

    @Test func aSearchRightAfterAWriteFindsIt() throws {
        let server = try SatchelProcess(["--memory"])
        let lines = [
            request(1, "notes.create", ["title": "kumquat jam"]),
            request(2, "search", ["query": "kumqu"]),
        ]
        server.send(Array(lines.map { $0 + "\n" }.joined().utf8))
        let id = try #require(server.readMessage()?["result"]?["id"])
        #expect(server.readMessage()?["result"]?["hits"]?.arrayValue?.map { $0["id"] } == [id])
    }

    @Test func aSearchThatMustIndexFirstReportsItsProgress() throws {
        let server = try SatchelProcess(["--memory"])
        // Writes and the search in one chunk: the search finds the index behind by all of them.
        var lines = (0..<3_000).map { request($0 + 1, "notes.create", ["title": .string("note \($0)")]) }
        lines.append(request(9_999, "search", ["query": "note 12", "_meta": ["progressToken": "s"]]))
        server.send(Array(lines.map { $0 + "\n" }.joined().utf8))
        let (notes, answer) = ExchangeFileTests.progress(of: server, until: 9_999)
        #expect(answer?["result"]?["hits"]?.arrayValue?.isEmpty == false)
        #expect(notes.first?["progressToken"] == "s")
        #expect(notes.first?["progress"] == 0)
        #expect(notes.last?["progress"] == notes.last?["total"])
        #expect((notes.last?["total"]?.integerValue ?? 0) >= 3_000)
        #expect(notes.allSatisfy { $0["message"] == "indexing" })
    }
}
