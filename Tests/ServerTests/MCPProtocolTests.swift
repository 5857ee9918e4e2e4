import Foundation
import Protocol
import Testing

/// MCP 2026-07-28 beside the handshake versions (SPEC §11): `server/discover`, the version in each request's
/// `_meta`, results as that version wants them, and -32022 for a version the server does not speak.
@Suite struct MCPProtocolTests {
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let supported: JSONValue = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    static func meta(_ version: JSONValue) -> JSONValue {
        [versionKey: version, "io.modelcontextprotocol/clientCapabilities": [:]]
    }

    @Test func discoverTellsTheVersionsTheCapabilitiesAndWhoTheServerIs() throws {
        let server = try SatchelProcess()
        let result = try #require(server.call(request(1, "server/discover", ["_meta": Self.meta("2026-07-28")]))?["result"])
        #expect(result["supportedVersions"] == Self.supported)
        #expect(result["capabilities"]?["tools"] != nil)
        #expect(result["resultType"] == "complete")
        #expect(result["ttlMs"] == 0)
        #expect(result["cacheScope"] == "private")
        #expect(result["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"] == "satchel")
        // server/discover is protocol plumbing, not a tool.
        let tools = server.call(request(2, "tools/list"))?["result"]?["tools"]?.arrayValue ?? []
        #expect(!tools.contains { $0["name"]?.stringValue?.contains("discover") == true })
    }

    /// Without `initialize`: each request names its version, and each result is shaped as 2026-07-28 wants
    /// (the same requests without the version are answered as before).
    @Test func requestsThatNameTheVersionAreServedWithoutAHandshake() throws {
        let server = try SatchelProcess()
        let modern = Self.meta("2026-07-28")
        let list = try #require(server.call(request(1, "tools/list", ["_meta": modern]))?["result"])
        #expect(list["resultType"] == "complete" && list["ttlMs"] == 0 && list["cacheScope"] == "private")
        #expect((list["tools"]?.arrayValue?.count ?? 0) > 40)
        let call = try #require(server.call(request(2, "tools/call", [
            "name": "notes_create", "arguments": ["title": "x"], "_meta": modern,
        ]))?["result"])
        #expect(call["resultType"] == "complete")
        #expect(call["structuredContent"]?["title"] == "x")
        #expect(call["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"] == "satchel")
        // A tool that waits on the feed is shaped the same when it is answered.
        let waited = try #require(server.call(request(3, "tools/call", [
            "name": "messages_load_more", "arguments": ["limit": 2], "_meta": modern,
        ]))?["result"])
        #expect(waited["resultType"] == "complete" && waited["isError"] == false)
        let failed = try #require(server.call(request(4, "tools/call", [
            "name": "notes_get", "arguments": ["id": "note_x"], "_meta": modern,
        ]))?["result"])
        #expect(failed["resultType"] == "complete" && failed["isError"] == true)
        for (id, meta) in [(5, nil), (6, Self.meta("2025-11-25"))] as [(Int, JSONValue?)] {
            let old = server.call(request(id, "tools/list", meta.map { ["_meta": $0] } ?? [:]))?["result"]
            #expect(old?["tools"] != nil && old?["resultType"] == nil && old?["ttlMs"] == nil, "\(id)")
        }
    }

    @Test func aVersionTheServerDoesNotSpeakIsRefusedNamingThoseItDoes() throws {
        let server = try SatchelProcess(["--memory", "--locale", "ru"])
        for (id, method) in [(1, "server/discover"), (2, "tools/list"), (3, "notes.list")] {
            let refused = server.call(request(id, method, ["_meta": Self.meta("2099-01-01")]))?["error"]
            #expect(refused?["code"] == -32022, "\(method)")
            #expect(refused?["data"] == ["supported": Self.supported, "requested": "2099-01-01"], "\(method)")
            #expect(refused?["message"]?.stringValue?.contains("2099-01-01") == true)
        }
        let call = server.call(request(4, "tools/call", [
            "name": "notes_create", "arguments": ["title": "never"], "_meta": Self.meta("1.0"),
        ]))
        #expect(call?["error"]?["code"] == -32022)
        let mistyped = server.call(request(5, "tools/list", ["_meta": Self.meta(20260728)]))?["error"]
        #expect(mistyped?["code"] == -32602)
        #expect(mistyped?["data"]?["field"] == .string("_meta." + Self.versionKey))
        // Nothing was written, and the connection goes on.
        #expect(server.call(request(6, "notes.list"))?["result"]?["items"] == [])
    }
}
