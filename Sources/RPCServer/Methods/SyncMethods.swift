import Domain
import Protocol
import Sync

/// Sync with PostgreSQL (SPEC §14): what the device's link knows.
enum SyncMethods {
    static let statusSchema = Schema.object(
        [
            ("enabled", Schema.boolean), ("connected", Schema.boolean),
            ("pending", Schema.integer(minimum: 0, description: "local changes not yet in PostgreSQL")),
            ("account", Schema.nullable(Schema.string(description: "the PostgreSQL role: the account"))),
            ("server", Schema.nullable(Schema.string(description: "role@host/database, without the password"))),
            ("device", Schema.nullable(Schema.string(description: "this database's device id, made once"))),
            ("schema", Schema.enumeration(["off", "unknown", "ok", "missing", "older", "newer"])),
            ("lastSuccess", Schema.nullable(Schema.timestamp)),
            ("lastError", Schema.nullable(Schema.string(description: "what went wrong last, in words"))),
        ],
        required: ["enabled", "connected", "pending", "account", "server", "device", "schema", "lastSuccess", "lastError"])

    static func methods(store: DataStore, service: SyncService?) -> [RPCMethod] {
        [
            RPCMethod(
                "sync.status",
                summary: "Whether this device syncs (--sync), is connected, and how many local changes wait to go out; the last success and the last error in words.",
                result: statusSchema
            ) { _, _ in
                guard let service else {
                    return [
                        "enabled": false, "connected": false, "pending": 0, "account": .null, "server": .null,
                        "device": .null, "schema": "off", "lastSuccess": .null, "lastError": .null,
                    ]
                }
                let status = service.status
                return [
                    "enabled": true, "connected": .bool(status.connected),
                    "pending": .integer(Int64(try store.sync.pending())),
                    "account": service.target.user.map { .string($0) } ?? .null,
                    "server": .string(service.target.description), "device": .string(service.device),
                    "schema": .string(status.schema.rawValue),
                    "lastSuccess": status.lastSuccess.map { .string(Timestamp.format(milliseconds: $0)) } ?? .null,
                    "lastError": status.lastError.map { .string($0) } ?? .null,
                ]
            }
        ]
    }
}
