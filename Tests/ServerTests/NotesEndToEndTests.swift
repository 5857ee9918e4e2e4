import Foundation
import Protocol
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SPEC §5 and §3 end to end: ENotes over the pipe, restarts, durability under SIGKILL.
@Suite struct NotesEndToEndTests {
    static func temporaryDatabase() -> String {
        let directory = NSTemporaryDirectory() + "satchel-e2e-\(UUID().uuidString)"
        return directory + "/notes.sqlite"
    }

    @Test func notesSurviveARestartInTheirOrderWithTheirColours() throws {
        let path = Self.temporaryDatabase()
        var ids: [String] = []
        do {
            let server = try SatchelProcess(["--db", path])
            for (index, title) in ["milk", "bread", "eggs"].enumerated() {
                let answer = server.call(request(index, "notes.create", [
                    "title": .string(title), "color": ["hue": 1, "saturation": 0, "brightness": 0],
                ]))
                ids.append(try #require(answer?["result"]?["id"]?.stringValue))
            }
            // eggs to the front; bread deleted.
            #expect(server.call(request(10, "notes.move", ["id": .string(ids[2]), "toIndex": 0]))?["result"]?["revision"] == 2)
            #expect(server.call(request(11, "notes.delete", ["id": .string(ids[1])]))?["result"] == [
                "id": .string(ids[1]), "deleted": true,
            ])
            server.closeInput()
            #expect(server.waitForExit() == 0)
        }
        let restarted = try SatchelProcess(["--db", path])
        let list = try #require(restarted.call(request(1, "notes.list"))?["result"])
        let items = try #require(list["items"]?.arrayValue)
        #expect(items.compactMap { $0["title"]?.stringValue } == ["eggs", "milk"])
        // The exact HSB triple comes back, not an RGB approximation of it.
        #expect(items[0]["color"] == ["hue": 1.0, "saturation": 0.0, "brightness": 0.0, "hex": "#000000"])
        #expect(list["nextCursor"] == .null)
        let info = restarted.call(request(2, "server.info"))?["result"]
        #expect(info?["counts"]?["notes"] == 2)
        #expect(info?["schemaVersion"]?.integerValue ?? 0 >= 1)
    }

    @Test func aNoteChangedByAnotherServerIsNeverAnsweredStale() throws {
        let path = Self.temporaryDatabase()
        let reader = try SatchelProcess(["--db", path])
        let writer = try SatchelProcess(["--db", path])
        let id = try #require(reader.call(request(1, "notes.create", ["title": "one"]))?["result"]?["id"])
        for round in 2...6 {
            // Read twice (the second answer may come from the reader's cache), then change it elsewhere.
            #expect(reader.call(request(round * 10, "notes.get", ["id": id]))?["result"]?["revision"] == .integer(Int64(round - 1)))
            #expect(reader.call(request(round * 10 + 1, "notes.get", ["id": id]))?["result"]?["revision"] == .integer(Int64(round - 1)))
            let updated = writer.call(request(round, "notes.update", ["id": id, "title": .string("v\(round)")]))
            #expect(updated?["result"]?["revision"] == .integer(Int64(round)))
            let seen = reader.call(request(round * 10 + 2, "notes.get", ["id": id]))?["result"]
            #expect(seen?["title"] == .string("v\(round)"))
        }
        _ = writer.call(request(99, "notes.delete", ["id": id]))
        #expect(reader.call(request(100, "notes.get", ["id": id]))?["error"]?["code"] == -32001)
    }

    @Test func theDatabaseFileAndFolderAreCreatedPrivate() throws {
        let path = Self.temporaryDatabase()
        let server = try SatchelProcess(["--db", path])
        #expect(server.call(request(1, "ping"))?["result"] == [:])
        let file = try FileManager.default.attributesOfItem(atPath: path)
        let folder = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test func anUnusableDatabasePathIsOneLineAndExitTwo() throws {
        let notADatabase = NSTemporaryDirectory() + "satchel-garbage-\(UUID().uuidString).sqlite"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: notADatabase))
        for path in ["/proc/satchel/nope.sqlite", notADatabase, NSTemporaryDirectory()] {
            let server = try SatchelProcess(["--db", path])
            #expect(server.waitForExit() == 2, "\(path)")
            #expect(server.standardError().split(separator: "\n").count == 1, "\(path)")
            #expect(server.readLine(timeout: 1) == nil)
        }
    }

    @Test func errorsCarryCodesReasonsAndTheSessionLanguage() throws {
        let server = try SatchelProcess(["--memory", "--locale", "ru"])
        let empty = server.call(request(1, "notes.create", ["title": "  ", "content": "\n"]))
        #expect(empty?["error"]?["code"] == -32002)
        #expect(empty?["error"]?["data"]?["reason"] == "emptyNote")
        #expect(empty?["error"]?["message"] == "У заметки должен быть заголовок или текст")
        let long = server.call(request(2, "notes.create", ["title": .string(String(repeating: "я", count: 501))]))
        #expect(long?["error"]?["data"] == ["reason": "titleTooLong", "field": "title", "limit": 500])
        let missing = server.call(request(3, "notes.get", ["id": "note_nope"]))
        #expect(missing?["error"]?["code"] == -32001)
        #expect(missing?["error"]?["data"] == ["reason": "notFound", "kind": "note", "id": "note_nope"])
        let badColor = server.call(request(4, "notes.create", ["title": "x", "color": ["hue": 2, "saturation": 0, "brightness": 1]]))
        #expect(badColor?["error"]?["data"]?["field"] == "color.hue")
        let mistyped = server.call(request(5, "notes.create", ["title": 5]))
        #expect(mistyped?["error"]?["code"] == -32602)
        #expect(mistyped?["error"]?["data"]?["field"] == "title")
        let badDeadline = server.call(request(6, "notes.create", ["title": "x", "deadline": "next week"]))
        #expect(badDeadline?["error"]?["code"] == -32602)
        let badCursor = server.call(request(7, "notes.list", ["cursor": "garbage!"]))
        #expect(badCursor?["error"]?["code"] == -32602)
        #expect(badCursor?["error"]?["data"]?["field"] == "cursor")
        let badLimit = server.call(request(8, "notes.list", ["limit": 501]))
        #expect(badLimit?["error"]?["data"]?["field"] == "limit")
    }

    @Test func updatesHonourIfRevisionAndDeadlinesNormaliseToUTC() throws {
        let server = try SatchelProcess()
        let created = try #require(server.call(request(1, "notes.create", [
            "title": "call mum", "deadline": "2026-12-01T10:00:00+03:00",
        ]))?["result"])
        #expect(created["deadline"] == "2026-12-01T07:00:00.000Z")
        let id = try #require(created["id"])
        let conflict = server.call(request(2, "notes.update", ["id": id, "title": "x", "ifRevision": 7]))
        #expect(conflict?["error"]?["code"] == -32006)
        #expect(conflict?["error"]?["data"] == ["reason": "revisionConflict", "current": 1])
        let updated = server.call(request(3, "notes.update", ["id": id, "deadline": nil, "ifRevision": 1]))?["result"]
        #expect(updated?["deadline"] == .null)
        #expect(updated?["title"] == "call mum")
        #expect(updated?["revision"] == 2)
        #expect(updated?["createdAt"] == created["createdAt"])
    }

    @Test func theFreeLimitCountsNotesAndPhotosTogether() throws {
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
        let server = try SatchelProcess(["--memory", "--free-limit", "2"])
        #expect(server.call(request(1, "notes.create", ["title": "a"]))?["result"] != nil)
        #expect(server.call(request(2, "photos.add", ["image": ["data": .string(png)]]))?["result"] != nil)
        let refused = server.call(request(3, "notes.create", ["title": "c"]))
        #expect(refused?["error"]?["code"] == -32003)
        #expect(refused?["error"]?["data"] == ["reason": "freeLimitReached", "limit": 2])
        #expect(server.call(request(4, "photos.add", ["image": ["data": .string(png)]]))?["error"]?["code"] == -32003)
        let info = server.call(request(5, "server.info"))?["result"]
        #expect(info?["edition"] == ["freeLimit": 2, "used": 2])
    }

    @Test func photoNotesCarryImageMetadataAndImagesComeBackByteIdentical() throws {
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
        let server = try SatchelProcess()
        let photo = try #require(server.call(request(1, "photos.add", [
            "image": ["data": .string(png), "mimeType": "image/jpeg"], "caption": "sunset",
        ]))?["result"])
        #expect(photo["image"]?["mimeType"] == "image/png")
        #expect(photo["image"]?["width"] == 1)
        #expect(photo["image"]?["height"] == 1)
        let imageID = try #require(photo["image"]?["id"])
        let fetched = server.call(request(2, "images.get", ["id": imageID]))?["result"]
        #expect(fetched?["data"] == .string(png))
        let text = server.call(request(3, "photos.add", ["image": ["data": .string(Data("hello".utf8).base64EncodedString())]]))
        #expect(text?["error"]?["data"]?["reason"] == "unsupportedImage")
        let relative = server.call(request(4, "photos.add", ["image": ["path": "pictures/cat.png"]]))
        #expect(relative?["error"]?["data"]?["field"] == "image.path")
        let shapeless = server.call(request(5, "photos.add", ["image": ["url": "http://x"]]))
        #expect(shapeless?["error"]?["code"] == -32602)
    }

    /// Kills the server with SIGKILL in the middle of a stream of pipelined creates: every create that was
    /// answered is there after a restart, and the database is intact.
    @Test func sigkillDuringPipelinedCreatesLosesNoAnsweredNote() throws {
        let path = Self.temporaryDatabase()
        let server = try SatchelProcess(["--db", path])
        var payload: [UInt8] = []
        for id in 0..<200_000 {
            payload += Array((request(id, "notes.create", ["title": .string("note \(id)"), "content": "x"]) + "\n").utf8)
        }
        server.sendInBackgroundThenClose(payload)
        var answered: [String] = []
        while answered.count < 3000, let line = server.readLine(timeout: 30) {
            if let id = (try? JSONParser.parse(line))?["result"]?["id"]?.stringValue { answered.append(id) }
        }
        kill(server.pid, SIGKILL)
        // Whatever else was already in the pipe was answered too: read it all.
        while let line = server.readLine(timeout: 2) {
            if let id = (try? JSONParser.parse(line))?["result"]?["id"]?.stringValue { answered.append(id) }
        }
        _ = server.waitForExit()
        #expect(answered.count >= 3000)

        let restarted = try SatchelProcess(["--db", path])
        var stored = Set<String>()
        var cursor: JSONValue = .null
        repeat {
            var params: JSONObject = ["limit": 500]
            if cursor != .null { params["cursor"] = cursor }
            let page = try #require(restarted.call(request(1, "notes.list", .object(params)))?["result"])
            for item in page["items"]?.arrayValue ?? [] { if let id = item["id"]?.stringValue { stored.insert(id) } }
            cursor = page["nextCursor"] ?? .null
        } while cursor != .null
        let lost = answered.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) answered notes were lost")
        restarted.closeInput()
        _ = restarted.waitForExit()

        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["sqlite3", path, "PRAGMA integrity_check"]
        let output = Pipe()
        check.standardOutput = output
        try check.run()
        check.waitUntilExit()
        let verdict = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(verdict.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
    }
}
