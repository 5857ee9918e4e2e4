import Domain
import Protocol

/// MCP (SPEC §11): every domain method as a tool named in MCP's snake_case (`notes.create` → `notes_create`,
/// `reminders.setCompleted` → `reminders_set_completed`) with its input schema from the registry;
/// `tools/call` runs it through the same validation and error translation as a direct call, and reports
/// domain errors as `isError` results.
enum MCPTools {
    /// Protocol plumbing that is not a tool.
    static let excluded: Set<String> = [
        "initialize", "notifications/initialized", "notifications/roots/list_changed", "notifications/cancelled",
        "ping", "shutdown", "exit", "server/discover",
        "rpc.discover", "changes.subscribe", "changes.unsubscribe", "tools/list", "tools/call",
    ]

    /// The tool's name of a method: a dot or a capital letter starts a new lower-case word. Any name given to
    /// `tools/call` goes through it too, so a method's own name or an older camelCase tool name is known,
    /// and refused with the tool's name.
    static func toolName(_ method: String) -> String {
        var name: [UInt8] = []
        for byte in method.utf8 {
            switch byte {
            case UInt8(ascii: "."): name.append(UInt8(ascii: "_"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): name += [UInt8(ascii: "_"), byte + 32]
            default: name.append(byte)
            }
        }
        return String(decoding: name, as: UTF8.self)
    }

    /// What a client may assume of each tool (MCP tool annotations), by method. A method missing here gets
    /// MCP's most cautious defaults (a test requires every tool to be here).
    static let hints: [String: ToolHints] = [
        "server.info": .readOnly, "server.describeError": .readOnly, "changes.since": .readOnly, "search": .readOnly, "images.get": .readOnly,
        "notes.get": .readOnly, "notes.list": .readOnly, "photos.get": .readOnly, "photos.list": .readOnly,
        "reminders.get": .readOnly, "reminders.list": .readOnly, "diary.get": .readOnly, "diary.list": .readOnly,
        "messages.get": .readOnly, "messages.list": .readOnly, "board.get": .readOnly, "board.list": .readOnly,
        "sync.status": .readOnly, "text.merge": .readOnly,
        // New items: nothing that was there changes.
        "notes.create": .adds, "photos.add": .adds, "reminders.add": .adds, "reminders.submit": .adds,
        "diary.create": .adds, "messages.send": .adds, "board.create": .adds, "board.vote": .adds,
        "reminders.toggle": .adds, "images.beginUpload": .adds,
        // Changes that lose nothing and end the same however often they are repeated.
        "notes.move": .settles, "photos.move": .settles, "reminders.move": .settles,
        "reminders.setCompleted": .settles, "reminders.beginEditing": .settles, "reminders.endEditing": .settles,
        "images.appendUpload": .settles, "images.finishUpload": .settles, "sync.setDeviceName": .settles,
        // What was there is replaced or removed.
        "notes.update": .replaces, "photos.update": .replaces, "reminders.update": .replaces,
        "diary.update": .replaces,
        "notes.delete": .removes, "photos.delete": .removes, "reminders.delete": .removes,
        "diary.delete": .removes, "messages.delete": .removes, "board.delete": .removes,
        "images.discardUpload": .removes,
        // `import` with `replace` empties every app first; `export` with `overwrite` replaces a file.
        "import": .removes, "export": .removes,
        // Asks the message feed, a server on the network.
        "messages.loadMore": ToolHints(readOnly: false, destructive: false, idempotent: false, openWorld: true),
        // Sends local changes to PostgreSQL and brings other devices' in: again, it changes nothing more.
        "sync.now": ToolHints(readOnly: false, destructive: false, idempotent: true, openWorld: true),
        // Reach PostgreSQL for the account's wrapped key.
        "sync.unlock": ToolHints(readOnly: false, destructive: false, idempotent: true, openWorld: true),
        "sync.changePassphrase": ToolHints(readOnly: false, destructive: true, idempotent: false, openWorld: true),
    ]

    /// Registers `tools/list` and `tools/call` over every method registered so far.
    /// `tools/list`'s answer and the tools by name, made when first asked for: only an assistant asks, and
    /// making them is a good part of what starting would cost.
    private final class Listing {
        let tools: [RPCMethod]

        init(_ tools: [RPCMethod]) {
            self.tools = tools
        }

        lazy var byName: [String: RPCMethod] = Dictionary(tools.map { (toolName($0.name), $0) }) { _, later in later }

        lazy var json: JSONValue = [
            "tools": .array(
                tools.map { method in
                    let title = method.title ?? method.name
                    return [
                        "name": .string(toolName(method.name)), "title": .string(title),
                        "description": .string(method.summary), "inputSchema": method.paramsSchema,
                        "outputSchema": outputSchema(of: method),
                        "annotations": (hints[method.name] ?? .unknown).json(title: title),
                    ]
                })
        ]
    }

    static func register(into registry: inout MethodRegistry, logger: Logger) {
        let tools = registry.methods.filter { !excluded.contains($0.name) }.map { method in
            method.name == MCPImageTool.methodName ? MCPImageTool.tool(of: method) : method
        }
        let listing = Listing(tools)
        let nameParam = Required.string("name", Schema.string(), "The tool's name, as tools/list gives it.")
        registry.register([
            RPCMethod(
                "tools/list", summary: "MCP: the tools (every domain method).",
                params: [.optional("cursor", Schema.string(), "Ignored: the list comes in one page."), MCPProtocol.metaParam],
                result: Schema.object([("tools", Schema.array(of: Schema.openObject))], required: ["tools"], additional: true)
            ) { params, _ in MCPProtocol.stamped(listing.json, version: MCPProtocol.version(of: params), cacheable: true) },
            RPCMethod(
                "tools/call", summary: "MCP: runs a tool; domain errors come back as results with isError: true.",
                params: [
                    nameParam.spec,
                    .optional("arguments", Schema.openObject, "The tool's arguments (its inputSchema)."),
                    MCPProtocol.metaParam,
                ],
                result: Schema.object(
                    [("content", Schema.array(of: Schema.openObject)), ("structuredContent", Schema.openObject),
                     ("isError", Schema.boolean)], required: ["content", "isError"], additional: true)
            ) { params, session in
                let name = params[nameParam]
                guard let method = listing.byName[name] else {
                    // One name per tool: a method's name or an older one is refused with the tool's.
                    let known = toolName(name)
                    throw ServerError.invalidParam(
                        "name", expected: listing.byName[known] == nil ? "the name of a tool from tools/list" : "\"\(known)\"")
                }
                let arguments = params.object("arguments") ?? JSONObject()
                // A tool reaches files only inside the client's roots (or, without roots, `--files-root`).
                return toolResult(
                    method, session.runningTool({ method.invoke(.byName(arguments), session: session, logger: logger) }),
                    session: session, version: MCPProtocol.version(of: params))
            },
        ])
        // A tool that waits on a network is answered when it answers, as its method is.
        registry["tools/call"]?.network = { params, session in
            guard let method = listing.byName[params[nameParam]], method.network != nil else { return nil }
            let arguments = params.object("arguments") ?? JSONObject()
            let version = MCPProtocol.version(of: params)
            switch session.runningTool({ method.begin(.byName(arguments), session: session, logger: logger) }) {
            case .failure(let error):
                return .answered(toolResult(method, .failure(error), session: session, version: version))
            case .success(nil):
                return nil
            case .success(let steps?):
                return steps.answering(as: method, logger: logger) {
                    toolResult(method, $0, session: session, version: version)
                }
            }
        }
    }

    /// A method's outcome as MCP's tool result, as protocol `version` wants it: errors are results too, with
    /// `isError: true`.
    static func toolResult(
        _ method: RPCMethod, _ outcome: Result<JSONValue, ServerError>, session: Session, version: String?
    ) -> JSONValue {
        MCPProtocol.stamped(toolResult(method, outcome, session: session), version: version)
    }

    private static func toolResult(_ method: RPCMethod, _ outcome: Result<JSONValue, ServerError>, session: Session) -> JSONValue {
        switch outcome {
        case .success(let value):
            let expanded = value.expanded
            if let present = method.toolContent {
                let (content, structured) = present(expanded)
                return ["content": .array(content), "structuredContent": structured, "isError": false]
            }
            let structured: JSONValue = returnsObject(method) ? expanded : ["result": expanded]
            return [
                "content": [["type": "text", "text": .string(JSONWriter.string(expanded))]],
                "structuredContent": structured, "isError": false,
            ]
        case .failure(let error):
            let response = error.response(in: session.language)
            return [
                "content": [["type": "text", "text": .string(response.message)]],
                "structuredContent": ["error": response.json], "isError": true,
            ]
        }
    }

    /// Whether the method's result is always an object, sent as the tool's `structuredContent` as it is;
    /// any other result is wrapped as `{result: …}` (MCP's structured content is an object).
    static func returnsObject(_ method: RPCMethod) -> Bool {
        method.result?["type"]?.stringValue == "object"
    }

    /// The tool's `outputSchema`: the method's result schema, wrapped as its structured content is.
    static func outputSchema(of method: RPCMethod) -> JSONValue {
        let result = method.result ?? Schema.any
        if returnsObject(method) { return result }
        return Schema.object([("result", result)], required: ["result"])
    }
}

/// MCP tool annotations: hints a client may use to decide what to ask its user before a call. MCP's
/// defaults are the cautious ones (may change and destroy, not idempotent, reaches the open world), so
/// every hint is always sent.
struct ToolHints: Equatable {
    var readOnly: Bool
    /// It may replace or remove what is there (MCP: not only additive).
    var destructive: Bool
    /// Repeating a call with the same arguments changes nothing more.
    var idempotent: Bool
    /// It reaches something outside Satchel's own data (the message feed).
    var openWorld = false

    /// Reads only.
    static let readOnly = ToolHints(readOnly: true, destructive: false, idempotent: true)
    /// Adds something new; each call adds again.
    static let adds = ToolHints(readOnly: false, destructive: false, idempotent: false)
    /// Changes a state without losing anything; the same call again changes nothing more.
    static let settles = ToolHints(readOnly: false, destructive: false, idempotent: true)
    /// Replaces what is there (an update).
    static let replaces = ToolHints(readOnly: false, destructive: true, idempotent: false)
    /// Removes or replaces what is there; the same call again changes nothing more.
    static let removes = ToolHints(readOnly: false, destructive: true, idempotent: true)
    /// A tool nobody classified: MCP's defaults.
    static let unknown = ToolHints(readOnly: false, destructive: true, idempotent: false, openWorld: true)

    func json(title: String) -> JSONValue {
        [
            "title": .string(title), "readOnlyHint": .bool(readOnly), "destructiveHint": .bool(destructive),
            "idempotentHint": .bool(idempotent), "openWorldHint": .bool(openWorld),
        ]
    }
}
