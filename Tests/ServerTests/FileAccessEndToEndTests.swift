import Foundation
import Protocol
import Testing

/// Which files a request reaches (SPEC §11, docs/protocol.md "Files"): `--files-root` confines every
/// request; an MCP tool reaches only the roots its client declared, asked with `roots/list`, and the requests
/// that arrive while the server waits for that answer wait with it, in order.
@Suite struct FileAccessEndToEndTests {
    /// A folder with `inside/photo.png`, `outside/photo.png` and `inside/out`, a link to `outside`;
    /// the paths are resolved, so they compare equal to what the server resolves.
    static func withFolders<T>(_ body: (_ inside: String, _ outside: String) throws -> T) throws -> T {
        try ExchangeFileTests.withFolder { folder in
            let base = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
            let inside = base + "/inside"
            let outside = base + "/outside"
            for place in [inside, outside] {
                try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: false)
                try FileManager.default.copyItem(atPath: DiaryEndToEndTests.pngPath, toPath: place + "/photo.png")
            }
            try FileManager.default.createSymbolicLink(atPath: inside + "/out", withDestinationPath: outside)
            return try body(inside, outside)
        }
    }

    static func reason(_ answer: JSONValue?) -> JSONValue? { answer?["error"]?["data"]?["reason"] }

    @Test func filesRootConfinesEveryRequestThatNamesAFile() throws {
        try Self.withFolders { inside, outside in
            let server = try SatchelProcess(["--memory", "--demo", "--files-root", inside])
            #expect(server.call(request(1, "export", ["path": .string(inside + "/all.json")]))?["result"] != nil)
            #expect(server.call(request(2, "import", ["path": .string(inside + "/all.json"), "mode": "merge"]))?["result"] != nil)
            #expect(server.call(request(3, "photos.add", ["image": ["path": .string(inside + "/photo.png")]]))?["result"] != nil)
            for (index, escape) in [outside, inside + "/../outside", inside + "/out"].enumerated() {
                let id = 10 * (index + 1)
                let export = server.call(request(id, "export", ["path": .string(escape + "/all.json")]))
                #expect(export?["error"]?["data"] == ["reason": "outsideFilesRoot", "field": "path"], "\(escape)")
                let photo = server.call(request(id + 1, "photos.add", ["image": ["path": .string(escape + "/photo.png")]]))
                #expect(photo?["error"]?["data"] == ["reason": "outsideFilesRoot", "field": "image.path"], "\(escape)")
                let post = server.call(request(id + 2, "diary.create", ["images": [["path": .string(escape + "/photo.png")]]]))
                #expect(post?["error"]?["data"] == ["reason": "outsideFilesRoot", "field": "images[0].path"], "\(escape)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["photo.png"], "nothing written outside")
        }
        let missing = try SatchelProcess(["--files-root", "/no/such/folder"])
        #expect(missing.waitForExit() == 2)
        #expect(missing.standardError().contains("--files-root"))
    }

    @Test func requestsWaitForTheClientsRootsInTheOrderTheyCame() throws {
        try Self.withFolders { inside, outside in
            let server = try SatchelProcess()
            let initialized = server.call(request(1, "initialize", [
                "protocolVersion": "2025-06-18", "capabilities": ["roots": ["listChanged": true]],
            ]))
            #expect(initialized?["result"] != nil)
            // The notification and two calls in one write: the calls wait for the answer to roots/list.
            let export: JSONValue = ["name": "export", "arguments": ["path": .string(inside + "/a.json")]]
            server.send(line: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            server.send(line: request(2, "tools/call", export))
            server.send(line: request(3, "ping"))
            let asked = try #require(server.readMessage())
            #expect(asked["method"] == "roots/list")
            #expect(asked["id"]?.stringValue != nil)
            #expect(server.readLine(timeout: 0.3) == nil, "nothing is answered before the roots are known")
            let uri = URL(fileURLWithPath: inside).absoluteString
            server.send(line: String(decoding: JSONWriter.bytes([
                "jsonrpc": "2.0", "id": asked["id"]!, "result": ["roots": [["uri": .string(uri)]]],
            ]), as: UTF8.self))
            let first = server.readMessage()
            #expect(first?["id"] == 2)
            #expect(first?["result"]?["isError"] == false)
            #expect(server.readMessage()?["id"] == 3)
            #expect(FileManager.default.fileExists(atPath: inside + "/a.json"))
            // Outside the root, and by plain JSON-RPC (the embedder's own call), which keeps full paths.
            let outsideCall = server.call(request(4, "tools/call", [
                "name": "export", "arguments": ["path": .string(outside + "/a.json")],
            ]))?["result"]
            #expect(outsideCall?["structuredContent"]?["error"]?["data"]?["reason"] == "outsideClientRoots")
            #expect(server.call(request(5, "export", ["path": .string(outside + "/a.json")]))?["result"] != nil)
        }
    }

    @Test func aClientThatAnswersWithAnErrorOrGoesAwayHasNoRoots() throws {
        try Self.withFolders { inside, _ in
            let arguments: JSONValue = ["name": "export", "arguments": ["path": .string(inside + "/a.json")]]
            // An error for an answer.
            let refusing = try SatchelProcess()
            _ = refusing.call(request(1, "initialize", ["capabilities": ["roots": [:]]]))
            refusing.send(line: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            let asked = try #require(refusing.readMessage())
            refusing.send(line: String(decoding: JSONWriter.bytes([
                "jsonrpc": "2.0", "id": asked["id"]!, "error": ["code": -32601, "message": "no roots here"],
            ]), as: UTF8.self))
            let call = refusing.call(request(2, "tools/call", arguments))?["result"]
            #expect(call?["structuredContent"]?["error"]?["data"]?["reason"] == "noFileAccess")
            // Input ends while the server waits: what was held is still answered, without file access.
            let leaving = try SatchelProcess()
            _ = leaving.call(request(1, "initialize", ["capabilities": ["roots": [:]]]))
            leaving.send(line: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            leaving.send(line: request(2, "tools/call", arguments))
            #expect(leaving.readMessage()?["method"] == "roots/list")
            leaving.closeInput()
            let held = leaving.readMessage()
            #expect(held?["id"] == 2)
            #expect(held?["result"]?["structuredContent"]?["error"]?["data"]?["reason"] == "noFileAccess")
            #expect(leaving.waitForExit() == 0)
            #expect(!FileManager.default.fileExists(atPath: inside + "/a.json"))
        }
    }

    /// A client without roots (every 2026-07-28 client) reaches the folders of `--files-root`, and only those.
    @Test func aClientWithoutRootsReachesTheFilesRoot() throws {
        try Self.withFolders { inside, outside in
            let server = try SatchelProcess(["--memory", "--files-root", inside])
            _ = server.call(request(1, "initialize", ["protocolVersion": "2025-06-18", "capabilities": [:]]))
            for (id, folder) in [(2, inside), (3, outside)] {
                let answer = server.call(request(id, "tools/call", [
                    "name": "photos_add", "arguments": ["image": ["path": .string(folder + "/photo.png")]],
                ]))?["result"]
                let refused = answer?["structuredContent"]?["error"]?["data"]?["reason"]
                #expect(refused == (folder == inside ? nil : "outsideFilesRoot"), "\(folder)")
            }
        }
    }

    @Test func aClientWithoutTheRootsCapabilityIsNeverAskedAndItsToolsReachNoFiles() throws {
        try Self.withFolders { inside, _ in
            let server = try SatchelProcess()
            _ = server.call(request(1, "initialize", ["protocolVersion": "2025-06-18", "capabilities": [:]]))
            server.send(line: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            let answer = server.call(request(2, "tools/call", [
                "name": "photos_add", "arguments": ["image": ["path": .string(inside + "/photo.png")]],
            ]))
            #expect(answer?["id"] == 2, "answered at once: no roots/list was sent")
            let error = answer?["result"]?["structuredContent"]?["error"]
            #expect(error?["data"] == ["reason": "noFileAccess", "field": "image.path"])
            #expect(error?["message"]?.stringValue?.contains("root") == true)
        }
    }
}
