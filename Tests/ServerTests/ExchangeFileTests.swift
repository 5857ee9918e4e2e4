import Foundation
import Protocol
import Testing

/// SPEC §11: `export {path}` and `import {path}`: through files, streamed, never half-written, with
/// progress for a request that asks for it.
@Suite struct ExchangeFileTests {
    /// Runs `body` with a new, empty temporary folder, removed afterwards.
    static func withFolder<T>(_ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-exchange-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }

    static func error(_ answer: JSONValue?) -> JSONValue? { answer?["error"]?["data"] }

    @Test func aFileExportIsTheSameDocumentAndImportsBackWhole() throws {
        try Self.withFolder { folder in
            let source = try SatchelProcess(["--memory", "--demo"])
            let path = folder + "/everything.json"
            let answer = source.call(request(1, "export", ["path": .string(path)]))?["result"]
            let inMessage = try ExchangeTests.export(source)
            let written = try String(contentsOfFile: path, encoding: .utf8)
            #expect(written == inMessage, "the file holds exactly what `export {}` answers")
            #expect(answer?["path"] == .string(path))
            #expect(answer?["bytes"] == .integer(Int64(written.utf8.count)))
            #expect(answer?["counts"]?["board"] == 20)
            #expect(answer?["counts"]?["images"] == 3)
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["everything.json"], "no temporary file is left")

            let target = try SatchelProcess()
            _ = target.call(request(1, "notes.create", ["title": "replaced by the import"]))
            let imported = target.call(request(2, "import", ["path": .string(path), "mode": "replace"]))?["result"]?["imported"]
            #expect(imported?["board"] == 20)
            #expect(imported?["notes"] == 5)
            #expect(try ExchangeTests.export(target) == inMessage)
        }
    }

    @Test func anExportReplacesAFileOnlyWithOverwriteAndNeverALink() throws {
        try Self.withFolder { folder in
            let server = try SatchelProcess(["--memory", "--demo"])
            let existing = folder + "/old.json"
            try "old".write(toFile: existing, atomically: false, encoding: .utf8)
            for (index, overwrite) in [nil, false].enumerated() {
                var params: JSONObject = ["path": .string(existing)]
                if let overwrite { params["overwrite"] = .bool(overwrite) }
                let refused = server.call(request(1 + index, "export", .object(params)))
                #expect(refused?["error"]?["code"] == -32002)
                #expect(Self.error(refused) == ["reason": "fileExists", "field": "path"])
                #expect(refused?["error"]?["message"]?.stringValue?.contains("overwrite: true") == true)
                #expect(try String(contentsOfFile: existing, encoding: .utf8) == "old", "a refused export leaves the file")
            }
            let replaced = server.call(request(3, "export", ["path": .string(existing), "overwrite": true]))
            #expect(replaced?["result"]?["path"] == .string(existing))
            #expect(try String(contentsOfFile: existing, encoding: .utf8).hasPrefix("{\"board\":"))
            let mode = try FileManager.default.attributesOfItem(atPath: existing)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            // A link is never followed nor replaced, even with overwrite: its target stays as it was.
            let target = folder + "/target.txt"
            try "target".write(toFile: target, atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: folder + "/link.json", withDestinationPath: target)
            try FileManager.default.createDirectory(atPath: folder + "/a-folder", withIntermediateDirectories: false)
            let refusedPaths = ["relative.json", folder + "/missing/x.json", folder + "/a-folder", folder + "/link.json", "/dev/null"]
            for (index, path) in refusedPaths.enumerated() {
                let answer = server.call(request(4 + index, "export", ["path": .string(path), "overwrite": true]))
                #expect(answer?["error"]?["code"] == -32002, "\(path)")
                #expect(Self.error(answer) == ["reason": "invalidPath", "field": "path"], "\(path)")
            }
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "target")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(left == ["a-folder", "link.json", "old.json", "target.txt"], "nothing else was written")
        }
    }

    @Test func anImportReadsOnlyARegularFileAndNeverWaitsOnAFIFO() throws {
        try Self.withFolder { folder in
            let server = try SatchelProcess()
            let fifo = folder + "/pipe"
            #expect(mkfifo(fifo, 0o600) == 0)
            for (index, path) in [fifo, "/dev/zero", folder, folder + "/missing.json", "relative.json"].enumerated() {
                let answer = server.call(request(1 + index, "import", ["path": .string(path), "mode": "merge"]))
                #expect(Self.error(answer) == ["reason": "invalidPath", "field": "path"], "\(path)")
            }
            let both = server.call(request(9, "import", ["path": .string(fifo), "document": [:], "mode": "merge"]))
            #expect(both?["error"]?["code"] == -32602)
            let neither = server.call(request(10, "import", ["mode": "merge"]))
            #expect(neither?["error"]?["code"] == -32602)
        }
    }

    @Test func aBadFileChangesNothingAndNamesWhatIsWrong() throws {
        try Self.withFolder { folder in
            let source = try SatchelProcess(["--memory", "--demo"])
            let path = folder + "/good.json"
            _ = source.call(request(1, "export", ["path": .string(path)]))
            let good = try String(contentsOfFile: path, encoding: .utf8)
            let target = try SatchelProcess()
            _ = target.call(request(1, "notes.create", ["title": "mine"]))
            let before = try ExchangeTests.export(target)

            func attempt(_ text: String, _ id: Int) -> JSONValue? {
                let bad = folder + "/bad-\(id).json"
                try? text.write(toFile: bad, atomically: false, encoding: .utf8)
                return Self.error(target.call(request(id, "import", ["path": .string(bad), "mode": "replace"])))
            }
            // A rule broken in the middle of the notes: everything before it was applied, then rolled back.
            var document = try JSONParser.parse(good)
            if case .object(var object) = document, case .array(var notes) = object["notes"], case .object(var note) = notes[2] {
                note["title"] = ""
                note["content"] = " "
                notes[2] = .object(note)
                object["notes"] = .array(notes)
                document = .object(object)
            }
            let broken = attempt(String(decoding: JSONWriter.bytes(document), as: UTF8.self), 2)
            #expect(broken?["reason"] == "emptyNote")
            #expect(broken?["field"] == "document.notes[2].title")
            // Cut short, a member mistyped, an id twice, a newer version, not JSON at all.
            #expect(attempt(String(good.prefix(good.count / 2)), 3)?["reason"] == "invalidDocument")
            #expect(attempt(good.replacingOccurrences(of: "\"notes\":[", with: "\"notes\":7,\"x\":["), 4)?["reason"] == "invalidDocument")
            let firstNote = try #require(document["notes"]?.arrayValue?.first)
            let doubled = good.replacingOccurrences(
                of: "\"notes\":[", with: "\"notes\":[" + String(decoding: JSONWriter.bytes(firstNote), as: UTF8.self) + ",")
            #expect(attempt(doubled, 5) == ["reason": "invalidDocument", "field": "document.notes[1].id"])
            let newer = attempt(good.replacingOccurrences(of: "\"version\":1}", with: "\"version\":2}"), 6)
            #expect(newer?["reason"] == "unsupportedVersion")
            #expect(attempt("nothing", 7) == ["reason": "notAnExport", "field": "document"])
            #expect(attempt("\u{89}PNG and so on", 8)?["reason"] == "notAnExport")
            let other = good.replacingOccurrences(of: "\"format\":\"satchel\"", with: "\"format\":\"other\"")
            #expect(attempt(other, 9) == ["reason": "notAnExport", "field": "document.format"])
            #expect(try ExchangeTests.export(target) == before, "no failed import changed anything")
        }
    }

    @Test func anInMessageExportPastTheMessageLimitPointsAtPath() throws {
        let server = try SatchelProcess(["--memory", "--demo", "--max-message-bytes", "8192"])
        let answer = server.call(request(1, "export"))
        #expect(answer?["error"]?["code"] == -32002)
        #expect(Self.error(answer) == ["reason": "exportTooLarge", "field": "path", "limit": 8192])
        #expect(answer?["error"]?["message"]?.stringValue?.contains("path") == true)
        #expect(server.call(request(2, "ping"))?["result"] == [:], "and the server carries on")
    }

    /// Reads lines up to the answer to `id`, returning the progress notifications before it and the answer.
    static func progress(of server: SatchelProcess, until id: Int) -> (notes: [JSONValue], answer: JSONValue?) {
        var notes: [JSONValue] = []
        while let message = server.readMessage() {
            if message["method"] == "notifications/progress" {
                notes.append(message["params"] ?? .null)
            } else if message["id"] == .integer(Int64(id)) {
                return (notes, message)
            }
        }
        return (notes, nil)
    }

    @Test func aRequestWithAProgressTokenHearsHowFarItIs() throws {
        try Self.withFolder { folder in
            let server = try SatchelProcess(["--memory", "--demo"])
            let path = folder + "/out.json"
            server.send(line: request(1, "export", ["path": .string(path), "_meta": ["progressToken": "export-1"]]))
            let export = Self.progress(of: server, until: 1)
            #expect(export.answer?["result"]?["path"] == .string(path))
            #expect(!export.notes.isEmpty)
            #expect(export.notes.allSatisfy { $0["progressToken"] == "export-1" })
            let steps = export.notes.compactMap { $0["progress"]?.integerValue }
            #expect(steps == steps.sorted())
            #expect(export.notes.last?["progress"] == export.notes.last?["total"], "the last report is the whole")
            #expect(export.notes.count <= 3, "a quick export reports its start and its end, not every element")

            server.send(line: request(2, "import", ["path": .string(path), "mode": "replace", "_meta": ["progressToken": 7]]))
            let imported = Self.progress(of: server, until: 2)
            #expect(imported.answer?["result"]?["imported"] != nil)
            #expect(imported.notes.first?["progressToken"] == 7)
            #expect(imported.notes.last?["progress"] == imported.notes.last?["total"])

            // Without a token: no progress; `_meta` is welcome on any method.
            server.send(line: request(3, "export", ["path": .string(path)]))
            #expect(Self.progress(of: server, until: 3).notes.isEmpty)
            #expect(server.call(request(4, "ping", ["_meta": ["progressToken": "p"]]))?["result"] == [:])
        }
    }
}

/// An export into a file of a database file reads on a connection of its own, off the loop: the requests
/// after it are answered meanwhile, it sees every write answered before it, and it can be cancelled.
@Suite struct ExportOffTheLoopTests {
    @Test func aPingBehindAnExportIsAnsweredFirstAndTheExportHoldsWhatCameBefore() throws {
        try ExchangeFileTests.withFolder { folder in
            let server = try SatchelProcess(["--db", folder + "/db.sqlite"])
            let batch = (0..<1_000).map { request($0 + 10, "notes.create", ["title": .string("note \($0)"), "content": .string(String(repeating: "x", count: 500))]) }
            server.send(Array(("[" + batch.joined(separator: ",") + "]\n").utf8))
            #expect(server.readMessage(timeout: 60)?.arrayValue?.count == 1_000)
            let path = folder + "/out.json"
            let lines = [
                request(1, "notes.create", ["title": "written just before"]),
                request(2, "export", ["path": .string(path), "_meta": ["progressToken": "e"]]),
                request(3, "ping"),
            ]
            server.send(Array(lines.map { $0 + "\n" }.joined().utf8))
            var answers: [JSONValue] = []
            var progress: [JSONValue] = []
            while answers.count < 3, let message = server.readMessage(timeout: 60) {
                if message["method"] == "notifications/progress" { progress.append(message["params"] ?? .null) } else { answers.append(message) }
            }
            #expect(answers.map { $0["id"] } == [1, 3, 2], "the ping does not wait for the export")
            #expect(answers.last?["result"]?["counts"]?["notes"] == 1_001)
            #expect(progress.first?["progress"] == 1, "the first report goes out as it came, as on the loop")
            #expect(progress.last?["progress"] == progress.last?["total"], "the last report is the whole, before the answer")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("written just before"))
        }
    }

    @Test func aCancelledExportLeavesNoFile() throws {
        try ExchangeFileTests.withFolder { folder in
            let server = try SatchelProcess(["--db", folder + "/db.sqlite"])
            for start in stride(from: 0, to: 20_000, by: 1_000) {
                let batch = (start..<start + 1_000).map {
                    request($0 + 10, "notes.create", ["title": .string("note \($0)"), "content": .string(String(repeating: "y", count: 1_000))])
                }
                server.send(Array(("[" + batch.joined(separator: ",") + "]\n").utf8))
                #expect(server.readMessage(timeout: 60)?.arrayValue?.count == 1_000)
            }
            let path = folder + "/out.json"
            let lines = [
                request(1, "export", ["path": .string(path)]),
                #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
                request(2, "ping"),
            ]
            server.send(Array(lines.map { $0 + "\n" }.joined().utf8))
            #expect(server.readMessage(timeout: 30)?["error"]?["code"] == -32800)
            #expect(server.readMessage(timeout: 30)?["id"] == 2)
            // The export's thread stops at its next piece and takes its temporary file away.
            let deadline = Date().addingTimeInterval(10)
            var left: [String] = []
            repeat {
                usleep(50_000)
                left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("out.json") }
            } while !left.isEmpty && Date() < deadline
            #expect(left.isEmpty, "\(left)")
        }
    }
}
