import Foundation
import Protocol
import Testing

/// `server.describeError`: an error answered in one language is said again, word for word as the server
/// would say it, in the session's language now (a page that changed language re-words the errors it shows).
@Suite struct DescribeErrorTests {
    @Test func everyKindOfErrorIsSaidAgainAsTheServerSaysItInTheNewLanguage() throws {
        let server = try SatchelProcess(["--memory", "--free-limit", "1"])
        let note = try #require(server.call(request(1, "notes.create", ["title": "only"]))?["result"])
        _ = server.call(request(2, "notes.update", ["id": note["id"]!, "title": "again"]))
        let failing: [String] = [
            request(3, "notes.create", ["title": "  "]),  // -32002 emptyNote (before the free limit)
            request(4, "notes.get", ["id": "note_missing"]),  // -32001
            request(5, "notes.create", ["title": "two"]),  // -32003
            request(6, "notes.update", ["id": note["id"]!, "title": "x", "ifRevision": 1]),  // -32006
            request(7, "notes.create", ["title": 5]),  // -32602
            request(8, "notes.frobnicate"),  // -32601
            request(9, "board.create", ["title": .string(String(repeating: "a", count: 300))]),  // -32002 with limit
            request(15, "tools/list", ["_meta": ["io.modelcontextprotocol/protocolVersion": "2099-01-01"]]),  // -32022
        ]
        for line in failing {
            let english = try #require(server.call(line)?["error"], "\(line)")
            for language in ["ru", "ja", "en"] {
                _ = server.call(request(10, "initialize", ["locale": .string(language)]))
                let described = server.call(request(11, "server.describeError", [
                    "code": english["code"]!, "data": english["data"] ?? [:],
                ]))?["result"]?["message"]
                let direct = server.call(line)?["error"]?["message"]
                #expect(described != nil && described == direct, "\(language): \(line)")
            }
            _ = server.call(request(12, "initialize", ["locale": "en"]))
        }
        let unknown = server.call(request(13, "server.describeError", ["code": -32002, "data": ["reason": "noSuchReason"]]))
        #expect(unknown?["error"]?["code"] == -32602)
        let foreign = server.call(request(14, "server.describeError", ["code": 1234]))
        #expect(foreign?["error"]?["data"]?["field"] == "data")
    }
}
