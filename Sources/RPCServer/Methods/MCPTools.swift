import Domain
import Protocol

/// MCP (SPEC §11): every domain method as a tool (`notes.create` → `notes_create`) with its input schema
/// from the registry; `tools/call` runs it through the same validation and error translation as a direct
/// call, and reports domain errors as `isError` results.
enum MCPTools {
    /// Protocol plumbing that is not a tool.
    static let excluded: Set<String> = [
        "initialize", "notifications/initialized", "ping", "shutdown", "exit", "rpc.discover", "changes.subscribe",
        "changes.unsubscribe", "tools/list", "tools/call",
    ]

    static func toolName(_ method: String) -> String { method.replacingOccurrences(of: ".", with: "_") }

    /// Registers `tools/list` and `tools/call` over every method registered so far.
    static func register(into registry: inout MethodRegistry, logger: Logger) {
        let tools = registry.methods.filter { !excluded.contains($0.name) }
        var byName: [String: RPCMethod] = [:]
        for method in tools { byName[toolName(method.name)] = method }
        let listing: JSONValue = [
            "tools": .array(
                tools.map { method in
                    [
                        "name": .string(toolName(method.name)), "title": .string(method.name),
                        "description": .string(method.summary), "inputSchema": method.paramsSchema,
                    ]
                })
        ]
        let nameParam = Required.string("name", Schema.string(), "The tool's name, as tools/list gives it.")
        registry.register([
            RPCMethod(
                "tools/list", summary: "MCP: the tools (every domain method).",
                params: [
                    .optional("cursor", Schema.string(), "Ignored: the list comes in one page."),
                    .optional("_meta", Schema.openObject, "MCP request metadata."),
                ], result: Schema.object([("tools", Schema.array(of: Schema.openObject))], required: ["tools"])
            ) { _, _ in listing },
            RPCMethod(
                "tools/call", summary: "MCP: runs a tool; domain errors come back as results with isError: true.",
                params: [
                    nameParam.spec,
                    .optional("arguments", Schema.openObject, "The tool's arguments (its inputSchema)."),
                    .optional("_meta", Schema.openObject, "MCP request metadata."),
                ],
                result: Schema.object(
                    [("content", Schema.array(of: Schema.openObject)), ("structuredContent", Schema.openObject),
                     ("isError", Schema.boolean)], required: ["content", "isError"])
            ) { params, session in
                let name = params[nameParam]
                guard let method = byName[name] else {
                    throw ServerError.invalidParam("name", expected: "the name of a tool from tools/list")
                }
                let arguments = params.object("arguments") ?? JSONObject()
                switch method.invoke(.byName(arguments), session: session, logger: logger) {
                case .success(let value):
                    let expanded = value.expanded
                    let structured: JSONValue = expanded.objectValue != nil ? expanded : ["result": expanded]
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
            },
        ])
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
