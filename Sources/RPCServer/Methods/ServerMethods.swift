import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Protocol

/// The server's own methods (SPEC §4): `initialize`, `ping`, `shutdown`, `exit`, `server.info`.
/// `rpc.discover` is added by ``OpenRPCDocument`` once every other method is registered.
enum ServerMethods {
    static let localeSchema = Schema.enumeration(Language.allCases.map(\.rawValue), description: "language of messages")

    static func methods(configuration: ServerConfiguration, store: DataStore, debugStrayOutput: Bool) -> [RPCMethod] {
        let describedCode = Required.integer("code", Schema.integer(), "The error's code, as it came.")
        return [
            RPCMethod(
                "initialize",
                summary: "Starts a session: sets its language and time zone and tells what the server is.",
                params: [
                    .optional("locale", localeSchema, "Language of messages: en, ru or ja."),
                    .optional("timeZone", Schema.string(description: "IANA name"), "Time zone for formatted dates."),
                    .optional("clientInfo", Schema.openObject, "Who the client is ({name, version})."),
                    .optional("protocolVersion", Schema.string(), "Protocol version the client speaks (MCP)."),
                    .optional("capabilities", Schema.openObject, "What the client supports (MCP)."),
                ],
                result: Schema.object(
                    [
                        ("serverInfo", Schema.object([("name", Schema.string()), ("version", Schema.string())])),
                        ("protocolVersion", Schema.string()),
                        ("capabilities", Schema.openObject),
                        ("locale", localeSchema),
                        ("timeZone", Schema.string()),
                    ], required: ["serverInfo", "protocolVersion", "capabilities", "locale", "timeZone"])
            ) { params, session in
                if let tag = params.string("locale") {
                    // The schema admits only our languages.
                    session.language = Language(rawValue: tag)!
                }
                if let identifier = params.string("timeZone") {
                    guard let zone = TimeZoneRules(identifier: identifier) else {
                        throw ServerError.invalidParam("timeZone", expected: "an IANA time zone name")
                    }
                    session.timeZone = zone
                }
                session.roots.initialize(capabilities: params.object("capabilities"))
                let asked = params.string("protocolVersion")
                let version = asked.flatMap { MCPProtocol.handshakeVersions.contains($0) ? $0 : nil }
                    ?? MCPProtocol.handshakeVersions[0]
                return [
                    "serverInfo": MCPProtocol.serverInfo, "protocolVersion": .string(version),
                    "capabilities": MCPProtocol.capabilities,
                    "locale": .string(session.language.rawValue),
                    "timeZone": .string(session.timeZone.identifier),
                ]
            },
            RPCMethod(
                "notifications/initialized",
                summary: "The client's acknowledgement of `initialize` (MCP); a notification. A client that declared the roots capability is then asked for its roots (`roots/list`).",
                result: nil
            ) { _, session in
                session.roots.refresh()
                return .null
            },
            RPCMethod(
                "notifications/roots/list_changed",
                summary: "MCP: the client's roots changed; the server asks for them again (`roots/list`).",
                result: nil
            ) { _, session in
                session.roots.refresh()
                return .null
            },
            RPCMethod("ping", summary: "Answers an empty object: the server is alive.", result: Schema.object([])) {
                _, _ in
                if debugStrayOutput { StrayOutput.write("stray output from ping\n") }
                return .object(JSONObject())
            },
            RPCMethod(
                "notifications/cancelled",
                summary: "The client no longer wants the answer to a request that waits on a network (MCP's shape; LSP's `$/cancelRequest`): it is answered -32800 at once. Anything else has been answered already and is left alone; a notification.",
                params: [
                    .required(
                        "requestId", Schema.anyOf([Schema.string(), Schema.integer()], expected: "a string or an integer"),
                        "The id of the request to cancel."),
                    .optional("reason", Schema.string(), "Why, for the log."),
                ],
                result: nil
            ) { params, session in
                if let id = params["requestId"].flatMap(RequestID.init) { session.cancelRequested.append(id) }
                return .null
            },
            RPCMethod(
                "shutdown",
                summary: "Finishes work; a request still waiting on a network and later requests are answered -32007 until `exit` or end of input.",
                result: Schema.null
            ) { _, session in
                session.isShuttingDown = true
                return .null
            },
            RPCMethod("exit", summary: "Ends the process (exit code 0) once what came before it is answered.", result: nil) {
                _, session in
                session.exitRequested = true
                return .null
            },
            RPCMethod(
                "server.describeError", title: "Word an error again",
                summary: "The message of an error this server answered with (its code and data as they came), in the session's language: say an error on screen again after the language changed. Returns {message}; -32602 for a code or data this server never answers with.",
                params: [describedCode.spec, .optional("data", Schema.openObject, "The error's data, as it came.")],
                result: Schema.object([("message", Schema.string())], required: ["message"])
            ) { params, session in
                guard let error = ServerError.rebuilt(code: params[describedCode], data: params.object("data") ?? JSONObject()) else {
                    throw ServerError.invalidParam("data", expected: "the code and data of an error this server answered with")
                }
                return ["message": .string(error.response(in: session.language).message)]
            },
            RPCMethod(
                "server.info", title: "Server information",
                summary: "Tells what this server is: its version, its database file (or :memory:), the schema version, the free edition's limit and use, and how many items each app holds. Reads only.",
                result: Schema.object(
                    [
                        ("version", Schema.string()),
                        ("database", Schema.string()),
                        ("schemaVersion", Schema.integer(minimum: 0)),
                        ("edition", Schema.object([
                            ("freeLimit", Schema.nullable(Schema.integer(minimum: 0))),
                            ("used", Schema.integer(minimum: 0)),
                        ])),
                        ("counts", Schema.object([], additional: true)),
                    ], required: ["version", "database", "schemaVersion", "edition", "counts"])
            ) { _, _ in
                [
                    "version": .string(SatchelVersion.current),
                    "database": .string(configuration.database.description),
                    "schemaVersion": .integer(Int64(try store.schemaVersion())),
                    "edition": [
                        "freeLimit": store.edition.freeLimit.map { .integer(Int64($0)) } ?? .null,
                        "used": .integer(Int64(try store.edition.used())),
                    ],
                    "counts": [
                        "notes": .integer(Int64(try store.notes.count())),
                        "photos": .integer(Int64(try store.photos.count())),
                        "images": .integer(Int64(try store.images.count())),
                        "reminders": .integer(Int64(try store.reminders.count())),
                        "diary": .integer(Int64(try store.diary.count())),
                        "messages": .integer(Int64(try store.messages.count())),
                        "board": .integer(Int64(try store.board.count())),
                    ],
                ]
            },
        ]
    }
}

/// The version the server reports.
enum SatchelVersion {
    static let current = "0.1.0"
}
