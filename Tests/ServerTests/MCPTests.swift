import Foundation
import Protocol
import Testing

/// SPEC §4 and §11: the MCP handshake and tools over the same stdio connection (the official SDK's session
/// is in clients/mcp; these check the wire details).
@Suite struct MCPTests {
    @Test(arguments: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
    func initializeEchoesEverySupportedVersionAndAdvertisesTools(version: String) throws {
        let server = try SatchelProcess()
        let result = server.call(request(1, "initialize", [
            "protocolVersion": .string(version), "capabilities": [:], "clientInfo": ["name": "c", "version": "1"],
        ]))?["result"]
        #expect(result?["protocolVersion"] == .string(version))
        #expect(result?["capabilities"]?["tools"] != nil)
        #expect(result?["serverInfo"]?["name"] == "satchel")
    }

    @Test func toolsMirrorTheRegistry() throws {
        let server = try SatchelProcess()
        let tools = try #require(server.call(request(1, "tools/list"))?["result"]?["tools"]?.arrayValue)
        let methods = try #require(server.call(request(2, "rpc.discover"))?["result"]?["methods"]?.arrayValue)
        let names = Set(tools.compactMap { $0["name"]?.stringValue })
        for method in methods.compactMap({ $0["name"]?.stringValue }) where method.contains(".") {
            guard !["rpc.discover", "changes.subscribe", "changes.unsubscribe"].contains(method) else { continue }
            let tool = method.replacing(/[.A-Z]/) { match in "_" + (match.output == "." ? "" : match.output.lowercased()) }
            #expect(names.contains(tool), "\(method) is not a tool")
        }
        let create = try #require(tools.first { $0["name"] == "notes_create" })
        #expect(create["inputSchema"]?["type"] == "object")
        #expect(create["inputSchema"]?["properties"]?["title"]?["type"] == "string")
        // Every tool is classified (an unclassified one gets MCP's cautious defaults, open world included)
        // and describes its structured content.
        for tool in tools {
            let name = tool["name"]?.stringValue ?? ""
            #expect(tool["annotations"]?["openWorldHint"] == .bool(["messages_load_more", "sync_now", "sync_unlock", "sync_change_passphrase"].contains(name)), "\(name)")
            for hint in ["readOnlyHint", "destructiveHint", "idempotentHint"] {
                #expect(tool["annotations"]?[hint]?.boolValue != nil, "\(name) \(hint)")
            }
            #expect(tool["outputSchema"]?["type"] == "object", "\(name)")
        }
        let export = try #require(tools.first { $0["name"] == "export" })
        #expect(export["annotations"]?["destructiveHint"] == true)
        #expect(export["inputSchema"]?["properties"]?["overwrite"]?["type"] == "boolean")
    }

    /// One naming style, MCP's snake_case, in tools/list and tools/call alike; a method's own name or the older
    /// camelCase tool name is refused with the tool's name.
    @Test func toolNamesAreSnakeCaseAndOnlyThoseAreCalled() throws {
        let server = try SatchelProcess()
        let tools = try #require(server.call(request(1, "tools/list"))?["result"]?["tools"]?.arrayValue)
        let names = tools.compactMap { $0["name"]?.stringValue }
        for name in names {
            #expect(name.wholeMatch(of: /[a-z]+(_[a-z]+)*/) != nil, "\(name)")
        }
        #expect(names.contains("reminders_set_completed") && names.contains("images_begin_upload"))
        let added = server.call(request(2, "tools/call", ["name": "reminders_add", "arguments": ["title": "Milk"]]))
        let id = try #require(added?["result"]?["structuredContent"]?["reminder"]?["id"])
        let done = server.call(request(3, "tools/call", [
            "name": "reminders_set_completed", "arguments": ["id": id, "completed": true],
        ]))?["result"]
        #expect(done?["isError"] == false)
        #expect(done?["structuredContent"]?["completed"] == true)
        for old in ["reminders_setCompleted", "reminders.setCompleted"] {
            let refused = server.call(request(4, "tools/call", ["name": .string(old), "arguments": ["id": id, "completed": false]]))
            #expect(refused?["error"]?["code"] == -32602, "\(old)")
            #expect(refused?["error"]?["data"]?["expected"] == "\"reminders_set_completed\"", "\(old)")
        }
        let unknown = server.call(request(5, "tools/call", ["name": "reminders_frobnicate"]))
        #expect(unknown?["error"]?["data"]?["expected"] == "the name of a tool from tools/list")
    }

    @Test func toolResultsCarryStructuredContentAndText() throws {
        let server = try SatchelProcess()
        let result = try #require(server.call(request(1, "tools/call", [
            "name": "board_create", "arguments": ["title": "Kiwi"], "_meta": ["progressToken": 1],
        ]))?["result"])
        #expect(result["isError"] == false)
        #expect(result["structuredContent"]?["title"] == "Kiwi")
        let text = try #require(result["content"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(try JSONParser.parse(text) == result["structuredContent"])
        // A result that is not an object is wrapped, so structuredContent is always an object.
        let deleted = server.call(request(2, "tools/call", [
            "name": "board_delete", "arguments": ["id": result["structuredContent"]!["id"]!],
        ]))?["result"]
        #expect(deleted?["structuredContent"]?["deleted"] == true)
    }

    /// images_get gives the picture as image content, a rendition (display unless thumbnail is asked for), and
    /// the metadata as structured content without the bytes; the original is not a tool's to give.
    @Test func anImageToolGivesImageContentOfARendition() throws {
        let server = try SatchelProcess()
        // A 4x3 PNG without transparency: its renditions are JPEG.
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGM4EaABRww4OQAsNg8BoqhHXQAAAABJRU5ErkJggg=="
        let photo = server.call(request(1, "tools/call", ["name": "photos_add", "arguments": ["image": ["data": .string(png)]]]))
        let id = try #require(photo?["result"]?["structuredContent"]?["image"]?["id"])
        for (size, asked) in [("display", nil), ("thumbnail", "thumbnail")] as [(String, String?)] {
            var arguments: JSONObject = ["id": id]
            if let asked { arguments["size"] = .string(asked) }
            let result = try #require(server.call(request(2, "tools/call", ["name": "images_get", "arguments": .object(arguments)]))?["result"])
            #expect(result["isError"] == false)
            let content = try #require(result["content"]?.arrayValue)
            #expect(content.first?["type"] == "image")
            #expect(content.first?["mimeType"] == "image/jpeg")
            let bytes = try #require(Data(base64Encoded: content.first?["data"]?.stringValue ?? ""))
            #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG")
            #expect(result["structuredContent"]?["data"] == nil)
            #expect(result["structuredContent"]?["rendition"]?["size"] == .string(size))
            #expect(result["structuredContent"]?["rendition"]?["byteSize"] == .integer(Int64(bytes.count)))
            #expect(result["structuredContent"]?["image"]?["mimeType"] == "image/png")
            // The bytes once only: the text block is the metadata.
            let texts = content.compactMap { $0["type"] == "text" ? $0["text"]?.stringValue : nil }
            #expect(texts.count == 1 && texts.allSatisfy { !$0.contains(content.first?["data"]?.stringValue ?? "-") })
        }
        let original = server.call(request(3, "tools/call", ["name": "images_get", "arguments": ["id": id, "size": "original"]]))?["result"]
        #expect(original?["isError"] == true)
        #expect(original?["structuredContent"]?["error"]?["data"]?["field"] == "size")
        let tools = try #require(server.call(request(4, "tools/list"))?["result"]?["tools"]?.arrayValue)
        let tool = try #require(tools.first { $0["name"] == "images_get" })
        #expect(tool["inputSchema"]?["properties"]?["size"]?["enum"] == ["thumbnail", "display"])
        #expect(tool["outputSchema"]?["properties"]?["data"] == nil)
        #expect(tool["outputSchema"]?["required"] == ["image", "rendition"])
        // The method itself is as it was: the original by default, in base64.
        let direct = server.call(request(5, "images.get", ["id": id]))?["result"]
        #expect(direct?["rendition"]?["size"] == "original")
        #expect(direct?["data"] == .string(png))
    }

    @Test func domainAndArgumentErrorsAreErrorResultsAndUnknownToolsAreInvalidParams() throws {
        let server = try SatchelProcess(["--memory", "--locale", "ja"])
        let domain = server.call(request(1, "tools/call", ["name": "notes_get", "arguments": ["id": "note_x"]]))?["result"]
        #expect(domain?["isError"] == true)
        #expect(domain?["structuredContent"]?["error"]?["code"] == -32001)
        #expect(domain?["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("note_x") == true)
        let arguments = server.call(request(2, "tools/call", ["name": "notes_create", "arguments": ["title": 7]]))?["result"]
        #expect(arguments?["isError"] == true)
        #expect(arguments?["structuredContent"]?["error"]?["data"]?["field"] == "title")
        let unknown = server.call(request(3, "tools/call", ["name": "notes_frobnicate"]))
        #expect(unknown?["error"]?["code"] == -32602)
    }

    @Test func searchOverTheWire() throws {
        let server = try SatchelProcess(["--memory", "--demo"])
        let hits = server.call(request(1, "search", ["query": "Mang", "domains": ["board"]]))?["result"]?["hits"]?.arrayValue
        #expect(hits?.count == 1)
        #expect(hits?.first?["title"] == "Mango")
        let bad = server.call(request(2, "search", ["query": "x", "domains": ["galaxy"]]))
        #expect(bad?["error"]?["code"] == -32602)
    }
}
