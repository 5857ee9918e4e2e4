import Foundation
import Protocol
import Testing

/// SPEC §2 and §4 end to end: the server's own methods, params handling and localized errors.
@Suite struct ServerMethodsTests {
    @Test func initializeSwitchesTheSessionLanguageAndTimeZone() throws {
        let server = try SatchelProcess()
        let english = server.call(request(1, "no.such"))
        #expect(english?["error"]?["message"] == "Method not found: no.such")
        let answer = server.call(request(2, "initialize", ["locale": "ja", "timeZone": "Asia/Kolkata"]))
        #expect(answer?["result"]?["locale"] == "ja")
        #expect(answer?["result"]?["timeZone"] == "Asia/Kolkata")
        #expect(answer?["result"]?["serverInfo"]?["name"] == "satchel")
        let japanese = server.call(request(3, "no.such"))
        #expect(japanese?["error"]?["message"] == "メソッドが見つかりません: no.such")
        _ = server.call(request(4, "initialize", ["locale": "ru"]))
        let russian = server.call(request(5, "no.such"))
        #expect(russian?["error"]?["message"] == "Метод не найден: no.such")
    }

    @Test func localeFlagSetsTheDefaultLanguage() throws {
        let server = try SatchelProcess(["--memory", "--locale", "ru"])
        let answer = server.call(request(1, "initialize"))
        #expect(answer?["result"]?["locale"] == "ru")
        #expect(server.call(request(2, "x"))?["error"]?["message"] == "Метод не найден: x")
    }

    @Test func initializeEchoesASupportedMCPVersionAndOtherwiseAnswersTheLatest() throws {
        let server = try SatchelProcess()
        let known = server.call(request(1, "initialize", [
            "protocolVersion": "2025-03-26", "capabilities": [:], "clientInfo": ["name": "t", "version": "1"],
        ]))
        #expect(known?["result"]?["protocolVersion"] == "2025-03-26")
        let unknown = server.call(request(2, "initialize", ["protocolVersion": "1999-01-01"]))
        #expect(unknown?["result"]?["protocolVersion"] == "2025-11-25")
        server.send(line: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        #expect(server.call(request(3, "ping"))?["id"] == 3)
    }

    @Test func badParamsAreInvalidParamsNamingTheField() throws {
        let server = try SatchelProcess()
        let unknown = server.call(request(1, "initialize", ["colour": "red"]))
        #expect(unknown?["error"]?["code"] == -32602)
        #expect(unknown?["error"]?["data"]?["field"] == "colour")
        let mistyped = server.call(request(2, "initialize", ["locale": 5]))
        #expect(mistyped?["error"]?["code"] == -32602)
        #expect(mistyped?["error"]?["data"]?["field"] == "locale")
        #expect(mistyped?["error"]?["data"]?["expected"] == #"one of "en", "ru", "ja""#)
        let zone = server.call(request(3, "initialize", ["timeZone": "Mars/Olympus"]))
        #expect(zone?["error"]?["data"]?["field"] == "timeZone")
        let tooMany = server.call(request(4, "ping", [1]))
        #expect(tooMany?["error"]?["code"] == -32602)
        #expect(tooMany?["error"]?["data"]?["field"] == "params")
    }

    @Test func stringLengthsInSchemasAreCheckedInCharacters() throws {
        let server = try SatchelProcess()
        let emptyID = server.call(request(1, "notes.get", ["id": ""]))
        #expect(emptyID?["error"]?["code"] == -32602)
        #expect(emptyID?["error"]?["data"]?["field"] == "id")
        let emptyVoter = server.call(request(2, "board.vote", ["id": "bp_x", "direction": "up", "voter": ""]))
        #expect(emptyVoter?["error"]?["data"]?["field"] == "voter")
        // One character made of several scalars is still one character.
        let family = server.call(request(3, "board.create", ["title": "x"]))?["result"]?["id"] ?? .null
        let vote = server.call(request(4, "board.vote", ["id": family, "direction": "up", "voter": "👨‍👩‍👧"]))
        #expect(vote?["result"]?["myVote"] == "up")
    }

    @Test func integersMustFitInSixtyFourBits() throws {
        let server = try SatchelProcess()
        let id = try #require(server.call(request(1, "notes.create", ["title": "a"]))?["result"]?["id"])
        _ = server.call(request(2, "notes.create", ["title": "b"]))
        let huge = server.call(#"{"jsonrpc":"2.0","id":3,"method":"notes.move","params":{"id":\#(id),"toIndex":1e300}}"#)
        #expect(huge?["error"]?["code"] == -32602)
        #expect(huge?["error"]?["data"]?["field"] == "toIndex")
        let revision = server.call(#"{"jsonrpc":"2.0","id":4,"method":"notes.update","params":{"id":\#(id),"title":"x","ifRevision":1e19}}"#)
        #expect(revision?["error"]?["code"] == -32602)
        #expect(server.call(request(5, "notes.get", ["id": id]))?["result"]?["title"] == "a")
        // A whole number written with an exponent is still that integer.
        let moved = server.call(#"{"jsonrpc":"2.0","id":6,"method":"notes.move","params":{"id":\#(id),"toIndex":1e0}}"#)
        #expect(moved?["result"]?["revision"] == 2)
    }

    @Test func positionalParamsFollowTheDiscoveredOrder() throws {
        let server = try SatchelProcess()
        let discovered = server.call(request(1, "rpc.discover"))
        let initialize = try #require(
            discovered?["result"]?["methods"]?.arrayValue?.first { $0["name"] == "initialize" })
        let names = initialize["params"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(names?.prefix(2) == ["locale", "timeZone"])
        let answer = server.call(request(2, "initialize", ["ru", "Europe/Moscow"]))
        #expect(answer?["result"]?["locale"] == "ru")
        #expect(answer?["result"]?["timeZone"] == "Europe/Moscow")
    }

    @Test func shutdownRefusesLaterRequestsAndExitEndsTheProcess() throws {
        let server = try SatchelProcess()
        #expect(server.call(request(1, "shutdown")) == ["jsonrpc": "2.0", "id": 1, "result": nil])
        let refused = server.call(request(2, "ping"))
        #expect(refused?["error"]?["code"] == -32007)
        #expect(refused?["error"]?["data"]?["reason"] == "shuttingDown")
        server.send(line: #"{"jsonrpc":"2.0","method":"exit"}"#)
        server.send(line: request(3, "ping"))
        #expect(server.readLine(timeout: 5) == nil)
        #expect(server.waitForExit() == 0)
    }

    @Test func shutdownThenEndOfInputExitsZero() throws {
        let server = try SatchelProcess()
        _ = server.call(request(1, "shutdown"))
        server.closeInput()
        #expect(server.waitForExit() == 0)
    }

    @Test func serverInfoReportsTheDatabaseLocation() throws {
        let memory = try SatchelProcess()
        let info = memory.call(request(1, "server.info"))?["result"]
        #expect(info?["database"] == ":memory:")
        #expect(info?["version"]?.stringValue?.isEmpty == false)
        #expect(info?["edition"]?["freeLimit"] == .null)
        let path = NSTemporaryDirectory() + "satchel-info-\(UUID().uuidString).sqlite"
        let file = try SatchelProcess(["--db", path])
        #expect(file.call(request(1, "server.info"))?["result"]?["database"] == .string(path))
    }

    @Test func rpcDiscoverDescribesEveryMethodWithSchemas() throws {
        let server = try SatchelProcess()
        let document = try #require(server.call(request(1, "rpc.discover"))?["result"])
        #expect(document["openrpc"]?.stringValue?.hasPrefix("1.") == true)
        let methods = try #require(document["methods"]?.arrayValue)
        let names = Set(methods.compactMap { $0["name"]?.stringValue })
        for expected in ["initialize", "ping", "shutdown", "exit", "server.info", "rpc.discover"] {
            #expect(names.contains(expected), "missing \(expected)")
        }
        for method in methods {
            #expect(method["params"]?.arrayValue != nil)
            for param in method["params"]?.arrayValue ?? [] {
                #expect(param["schema"]?.objectValue != nil)
            }
        }
        // Every method listed is really served: none answers "method not found".
        for (index, name) in names.sorted().enumerated() where !["exit", "shutdown"].contains(name) {
            let answer = server.call(request(100 + index, name))
            #expect(answer?["error"]?["code"] != -32601, "\(name) is listed but not served")
        }
    }

    /// Every `$ref` in `value`, as the path it names.
    static func references(in value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            if let target = members["$ref"]?.stringValue { return [target] }
            return members.flatMap { references(in: $0.value) }
        case .array(let elements): return elements.flatMap(references(in:))
        default: return []
        }
    }

    @Test func rpcDiscoverNamesTheEntitiesTheErrorsAndTheNotifications() throws {
        let server = try SatchelProcess()
        let document = try #require(server.call(request(1, "rpc.discover"))?["result"])
        let schemas = try #require(document["components"]?["schemas"]?.objectValue)
        let errors = try #require(document["components"]?["errors"]?.objectValue)
        // The apps' entities, each with its title, referred to where methods answer them.
        for entity in ["Note", "Photo", "Image", "StoredImage", "Reminder", "DiaryPost", "DiaryPreview", "Message", "BoardPost", "ChangeEvent", "Color"] {
            #expect(schemas[entity]?["title"] == .string(entity), "\(entity)")
        }
        let methods = try #require(document["methods"]?.arrayValue)
        func method(_ name: String) -> JSONValue? { methods.first { $0["name"]?.stringValue == name } }
        #expect(method("notes.get")?["result"]?["schema"] == ["$ref": "#/components/schemas/Note"])
        #expect(method("notes.list")?["result"]?["schema"]?["properties"]?["items"]?["items"] == ["$ref": "#/components/schemas/Note"])
        #expect(schemas["Note"]?["properties"]?["color"] == ["$ref": "#/components/schemas/Color"])
        #expect(method("notes.create")?["params"]?.arrayValue?.first { $0["name"] == "color" }?["schema"] == ["$ref": "#/components/schemas/ColorInput"])
        // Every reference leads somewhere.
        for target in Self.references(in: document) {
            let parts = target.split(separator: "/").map(String.init)
            #expect(parts.count == 4 && parts[0] == "#" && parts[1] == "components", "\(target)")
            let found = parts.count == 4 ? document["components"]?[parts[2]]?[parts[3]] : nil
            #expect(found != nil, "\(target) leads nowhere")
        }
        // Each request lists its errors: those of its shape and those it declares.
        func errorNames(_ name: String) -> [String] {
            (method(name)?["errors"]?.arrayValue ?? []).compactMap { $0["$ref"]?.stringValue?.split(separator: "/").last.map(String.init) }
        }
        for method in methods where method["result"] != nil {
            let listed = method["errors"]?.arrayValue ?? []
            #expect(!listed.isEmpty, "\(method["name"] ?? .null) lists no errors")
        }
        #expect(errorNames("notes.create").contains("FreeLimitReached"))
        #expect(!errorNames("notes.list").contains("FreeLimitReached"))
        #expect(errorNames("notes.update").contains("NotFound") && errorNames("notes.update").contains("RevisionConflict"))
        #expect(errorNames("messages.loadMore").contains("UpstreamUnavailable") && errorNames("messages.loadMore").contains("RequestCancelled"))
        #expect(errorNames("ping") == ["ShuttingDown", "InternalError"])
        #expect(errors["NotFound"]?["code"] == -32001 && errors["InvalidParams"]?["code"] == -32602)
        // The notifications the server sends, described as methods are.
        let notifications = try #require(document["x-notifications"]?.arrayValue)
        #expect(Set(notifications.compactMap { $0["name"]?.stringValue }) == ["changed", "resync", "notifications/progress"])
        let changed = notifications.first { $0["name"] == "changed" }?["params"]?.arrayValue ?? []
        #expect(changed.map { $0["name"]?.stringValue ?? "" } == ["seq", "at", "domain", "kind", "id", "entity"])
        let entity = Self.references(in: changed.last?["schema"] ?? .null)
        #expect(entity.contains("#/components/schemas/Note"))
    }
}
