import Protocol

/// MCP's protocol versions (SPEC §11). The handshake versions begin with `initialize`; from 2026-07-28 there
/// is no handshake: a client asks `server/discover`, and each request names its version (and the client's
/// capabilities) in `params._meta`. Both are served side by side, request by request: a request whose
/// `_meta` names a version is answered as that version asks, any other as before.
enum MCPProtocol {
    /// The versions whose `initialize` handshake the server answers, newest first.
    static let handshakeVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The versions without a handshake, newest first.
    static let modernVersions = ["2026-07-28"]
    /// Every version the server speaks, newest first: what `server/discover` lists and -32022 names.
    static let supportedVersions = modernVersions + handshakeVersions

    /// The `_meta` key of a request's protocol version.
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    /// The `_meta` key of a result's server identity.
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

    static let serverInfo: JSONValue = ["name": "satchel", "version": .string(SatchelVersion.current)]
    static let capabilities: JSONValue = ["tools": ["listChanged": false]]

    /// The version a request's `_meta` names, checked: `nil` when it names none (a handshake-era or plain
    /// JSON-RPC request); a version the server does not speak is -32022, naming those it does.
    static func version(in meta: JSONValue) throws(ServerError) -> String? {
        guard let given = meta.objectValue?[versionKey] else { return nil }
        guard let version = given.stringValue else {
            throw ServerError.invalidParam("_meta.\(versionKey)", expected: "a protocol version, such as \"\(modernVersions[0])\"")
        }
        guard supportedVersions.contains(version) else { throw ServerError.unsupportedProtocolVersion(version) }
        return version
    }

    /// The version named by validated params (see ``version(in:)``).
    static func version(of params: ParamValues) -> String? {
        params.object("_meta")?[versionKey]?.stringValue
    }

    /// An MCP result as `version` wants it: from 2026-07-28 every result says `resultType`, carries the
    /// server's identity in `_meta`, and a result a client may cache (`cacheable`: `server/discover`,
    /// `tools/list`) says for how long, `ttlMs` (0: ask again each time) and `cacheScope` (this user's only);
    /// for an older version (or none), `result` as it is.
    static func stamped(_ result: JSONValue, version: String?, cacheable: Bool = false) -> JSONValue {
        guard let version, modernVersions.contains(version), case .object(var members) = result else { return result }
        members["resultType"] = "complete"
        members["_meta"] = [serverInfoKey: serverInfo]
        if cacheable {
            members["ttlMs"] = 0
            members["cacheScope"] = "private"
        }
        return .object(members)
    }

    static let metaParam = ParamSpec.optional("_meta", Schema.openObject, "MCP request metadata (from 2026-07-28: the protocol version and the client's capabilities).")

    /// `server/discover`, the first request of a 2026-07-28 client.
    static var discover: RPCMethod {
        RPCMethod(
            "server/discover",
            summary: "MCP from 2026-07-28, in place of `initialize`: the protocol versions the server speaks, its capabilities and, in `_meta`, who it is. A version in `params._meta` the server does not speak is -32022 with `data.supported`.",
            params: [metaParam],
            result: Schema.object(
                [
                    ("supportedVersions", Schema.array(of: Schema.string())), ("capabilities", Schema.openObject),
                    ("resultType", Schema.string()), ("ttlMs", Schema.integer(minimum: 0)),
                    ("cacheScope", Schema.enumeration(["private", "public"])), ("_meta", Schema.openObject),
                ], required: ["supportedVersions", "capabilities", "resultType", "ttlMs", "cacheScope"])
        ) { _, _ in
            stamped(
                ["supportedVersions": .array(supportedVersions.map { .string($0) }), "capabilities": capabilities],
                version: modernVersions[0], cacheable: true)
        }
    }
}
