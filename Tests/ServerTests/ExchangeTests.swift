import Domain
import Foundation
import Protocol
import Testing

/// SPEC §11: export and import end to end.
@Suite struct ExchangeTests {
    static func export(_ server: SatchelProcess) throws -> String {
        server.send(line: request(900, "export"))
        let line = try #require(server.readLine())
        let start = try #require(line.range(of: "\"result\":"))
        return String(line[start.upperBound...].dropLast())
    }

    @Test func exportImportIntoAnEmptyDatabaseExportGivesTheSameDocument() throws {
        let source = try SatchelProcess(["--memory", "--demo"])
        // Some state beyond the demo: a voter's vote, a deleted feed message, a reordered note.
        let board = source.call(request(1, "board.list", ["limit": 1]))?["result"]?["items"]?.arrayValue?.first?["id"] ?? .null
        _ = source.call(request(2, "board.vote", ["id": board, "direction": "down", "voter": "kim"]))
        _ = source.call(request(3, "messages.loadMore", ["limit": 3]))
        let note = source.call(request(4, "notes.list"))?["result"]?["items"]?.arrayValue?[3]["id"] ?? .null
        _ = source.call(request(5, "notes.move", ["id": note, "toIndex": 0]))
        let first = try Self.export(source)
        let document = try JSONParser.parse(first)
        #expect(document["format"] == "satchel")
        #expect(document["version"] == 1)

        let target = try SatchelProcess()
        let imported = target.call(request(1, "import", ["document": document, "mode": "replace"]))
        #expect(imported?["result"]?["imported"]?["board"] == 20)
        let second = try Self.export(target)
        #expect(second == first)
        // And what was imported behaves: the voter's vote is there, the order is kept.
        let vote = target.call(request(2, "board.get", ["id": board, "voter": "kim"]))?["result"]
        #expect(vote?["myVote"] == "down")
        #expect(target.call(request(3, "notes.list"))?["result"]?["items"]?.arrayValue?.first?["id"] == note)
    }

    @Test func aMalformedOrNewerDocumentIsRefusedAndChangesNothing() throws {
        let server = try SatchelProcess(["--memory", "--demo"])
        let before = try Self.export(server)
        var document = try JSONParser.parse(before)
        guard case .object(var object) = document else { throw CancellationError() }

        object["version"] = 2
        let newer = server.call(request(1, "import", ["document": .object(object), "mode": "replace"]))
        #expect(newer?["error"]?["code"] == -32002)
        #expect(newer?["error"]?["data"]?["reason"] == "unsupportedVersion")

        object["version"] = 1
        var notes = object["notes"]?.arrayValue ?? []
        if case .object(var broken) = notes[1] {
            broken["title"] = ""
            broken["content"] = " "
            notes[1] = .object(broken)
        }
        object["notes"] = .array(notes)
        let invalid = server.call(request(2, "import", ["document": .object(object), "mode": "replace"]))
        #expect(invalid?["error"]?["data"]?["reason"] == "emptyNote")
        #expect(invalid?["error"]?["data"]?["field"] == "document.notes[1].title")

        object["notes"] = "not a list"
        let mistyped = server.call(request(3, "import", ["document": .object(object), "mode": "merge"]))
        #expect(mistyped?["error"]?["data"]?["reason"] == "invalidDocument")
        #expect(mistyped?["error"]?["data"]?["field"] == "document.notes")

        document = ["format": "something else", "version": 1]
        let foreign = server.call(request(4, "import", ["document": document, "mode": "merge"]))
        #expect(foreign?["error"]?["data"]?["reason"] == "invalidDocument")
        #expect(try Self.export(server) == before)
    }

    @Test func mergeKeepsWhatIsThereAndAddsWhatIsNew() throws {
        let source = try SatchelProcess()
        _ = source.call(request(1, "notes.create", ["title": "from source"]))
        let document = try JSONParser.parse(try Self.export(source))
        let target = try SatchelProcess()
        _ = target.call(request(1, "notes.create", ["title": "local"]))
        #expect(target.call(request(2, "import", ["document": document, "mode": "merge"]))?["result"]?["imported"] == ["notes": 1])
        // Importing the same document again adds nothing.
        #expect(target.call(request(3, "import", ["document": document, "mode": "merge"]))?["result"]?["imported"] == [:])
        let titles = target.call(request(4, "notes.list"))?["result"]?["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
        #expect(titles == ["local", "from source"])
    }

    @Test func countsThatCouldOverflowAndDuplicateKeysAreInvalidDocuments() throws {
        let server = try SatchelProcess()
        func document(board: JSONValue = [], messages: JSONValue = []) -> JSONValue {
            [
                "format": "satchel", "version": 1, "images": [], "notes": [], "photos": [], "reminders": [], "diary": [],
                "messages": messages, "messageFeeds": [], "board": board,
            ]
        }
        let post: JSONObject = [
            "id": "bp_1", "title": "Fig", "ups": .integer(Int64.max), "downs": 0, "votes": [],
            "createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z", "revision": 1,
        ]
        let overflow = server.call(request(1, "import", ["document": document(board: [.object(post)]), "mode": "merge"]))
        #expect(overflow?["error"]?["data"] == ["reason": "invalidDocument", "field": "document.board[0].ups"])
        var twice = post
        twice["ups"] = 1
        twice["votes"] = [["voter": "v", "direction": "up"], ["voter": "v", "direction": "down"]]
        let voter = server.call(request(2, "import", ["document": document(board: [.object(twice)]), "mode": "merge"]))
        #expect(voter?["error"]?["data"] == ["reason": "invalidDocument", "field": "document.board[0].votes[1]"])
        let message: JSONValue = [
            "id": "m1", "text": "hi", "sentAt": "2026-01-01T00:00:00.000Z", "authorName": "A", "origin": "remote",
            "feedKey": "k",
        ]
        var second = message.objectValue!
        second["id"] = "m2"
        let keys = server.call(request(3, "import", ["document": document(messages: [message, .object(second)]), "mode": "merge"]))
        #expect(keys?["error"]?["data"] == ["reason": "invalidDocument", "field": "document.messages[1].feedKey"])
        #expect(server.call(request(4, "server.info"))?["result"]?["counts"]?["board"] == 0)
    }

    /// The export is written by hand, element by element, for speed; what it writes must be exactly
    /// `ExchangeDocument`'s `Codable` form: every member (an absent optional left out), no other, the same
    /// values, in sorted order.
    @Test func theExportIsTheDocumentsCodableForm() throws {
        let server = try SatchelProcess(["--memory", "--demo"])
        // Beyond the demo: a vote, feed messages (feedKey), a message with an avatar, a post without text.
        let board = server.call(request(1, "board.list", ["limit": 1]))?["result"]?["items"]?.arrayValue?.first?["id"] ?? .null
        _ = server.call(request(2, "board.vote", ["id": board, "direction": "up", "voter": "kim"]))
        _ = server.call(request(3, "messages.loadMore", ["limit": 3]))
        let avatar: JSONValue = [
            "id": "m1", "text": "hi", "sentAt": "2026-01-01T00:00:00.000Z", "authorName": "A",
            "authorAvatarUrl": "https://example.com/a.png", "origin": "remote", "feedKey": "k",
        ]
        let document: JSONValue = [
            "format": "satchel", "version": 1, "images": [], "notes": [], "photos": [], "reminders": [], "diary": [],
            "messages": [avatar], "messageFeeds": [], "board": [],
        ]
        _ = server.call(request(4, "import", ["document": document, "mode": "merge"]))
        let image = server.call(request(5, "photos.list"))?["result"]?["items"]?.arrayValue?.first?["image"]?["id"] ?? .null
        _ = server.call(request(6, "diary.create", ["images": [["imageId": image]]]))

        let text = try Self.export(server)
        for member in ["\"votes\":[{", "\"feedKey\"", "\"authorAvatarUrl\"", "\"deadline\"", "\"caption\"", "\"memo\""] {
            #expect(text.contains(member), "the export should have \(member)")
        }
        let decoded = try JSONDecoder().decode(ExchangeDocument.self, from: Data(text.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let codable = try JSONParser.parse(String(decoding: try encoder.encode(decoded), as: UTF8.self))
        #expect(Self.numbersAsDoubles(codable) == Self.numbersAsDoubles(try JSONParser.parse(text)))
    }

    /// `1` and `1.0` as the same value (JSONEncoder and the export may write a whole double either way).
    static func numbersAsDoubles(_ value: JSONValue) -> JSONValue {
        switch value {
        case .integer(let integer): .number(Double(integer))
        case .array(let elements): .array(elements.map(numbersAsDoubles))
        case .object(let object): .object(JSONObject(object.map { ($0.key, numbersAsDoubles($0.value)) }))
        default: value
        }
    }
}
